/**
 * An outage on loopback: the reference server answers 503 (no Retry-After) for its first second
 * while calls arrive at 100/s for 3 s. The key's gate holds them behind one probe at a time, so
 * the server sees few extra attempts and almost every call succeeds.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { startServer } from '../../src/server/index.js';

describe('outage', () => {
  it('503s for 1 s under 100 req/s: attempts ≤ 1.2 × calls, ≥ 99 % succeed', async () => {
    const server = await startServer({ rate: 100_000, burst: 100_000, failForMs: 1000 });
    try {
      let attempts = 0;
      const fetch = createFetch({
        fetch: (input, init) => {
          attempts++;
          return globalThis.fetch(input, init);
        },
      });
      const calls: Array<Promise<number>> = [];
      const started = performance.now();
      for (let i = 0; i < 300; i++) {
        const due = started + i * 10;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        calls.push(
          fetch(`${server.url}/items`).then(
            async (res) => {
              await res.arrayBuffer();
              return res.status;
            },
            () => 0,
          ),
        );
      }
      const statuses = await Promise.all(calls);
      const ok = statuses.filter((s) => s === 200).length;
      expect(ok / calls.length).toBeGreaterThanOrEqual(0.99);
      expect(attempts / calls.length).toBeLessThanOrEqual(1.2);
    } finally {
      await server.close();
    }
  });
});

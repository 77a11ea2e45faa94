/**
 * Issue #12, item 6, over real loopback HTTP: a proxy that counts refused requests against its
 * quota (sliding log of 30 per 3 s) and answers a bare `429` with `Retry-After: 1` — shorter than
 * its real wait. A client that retries every call after `Retry-After` keeps it shut for good: 8
 * refused calls a second stay in a 3-second log of 30. Headway sends one probe after each gate and
 * doubles its hold each time the probe is refused, so the log drains and every call completes.
 * The wall time is only a loose sanity bound; timing targets are the benchmark's (S6).
 */
import { describe, expect, it } from 'vitest';
import { startCountingProxy } from '../../bench/lib/proxy-server.js';
import { createFetch } from '../../src/client/create-fetch.js';

const N = 75;
const WORKERS = 8;

describe('a proxy that counts refused requests', () => {
  it('never locks the key out: every call completes, refusals stay few', async () => {
    const proxy = await startCountingProxy({ limit: 30, windowMs: 3000 });
    try {
      const fetch = createFetch({ profile: 'batch' });
      let next = 0;
      const statuses: number[] = [];
      await Promise.all(
        Array.from({ length: WORKERS }, async () => {
          while (next++ < N) {
            const res = await fetch(`${proxy.url}/items`);
            statuses.push(res.status);
            await res.arrayBuffer();
          }
        }),
      );
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      const { allowed, refused } = proxy.metrics();
      expect(allowed).toBe(N);
      // The first episode's calls in flight, then about one probe per window.
      expect(refused).toBeLessThanOrEqual(WORKERS + 8);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

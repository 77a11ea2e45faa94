import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { redisStore } from '../../src/redis/index.js';
import type { Decision, RateLimitStore, StoreLimit } from '../../src/stores/store.js';
import { redisUrl, uniquePrefix } from '../support/redis.js';

const clients: Redis[] = [];

beforeAll(async () => {
  for (let i = 0; i < 2; i++) {
    const client = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true });
    await client.connect();
    clients.push(client);
  }
});
afterAll(() => {
  for (const client of clients) client.disconnect();
  vi.restoreAllMocks();
});

/** Runs `call` while this process's clocks read `skewMs` off (Date.now and performance.now). */
async function skewed<T>(skewMs: number, call: () => Promise<T>): Promise<T> {
  const realDate = Date.now.bind(Date);
  const realPerf = performance.now.bind(performance);
  const date = vi.spyOn(Date, 'now').mockImplementation(() => realDate() + skewMs);
  const perf = vi.spyOn(performance, 'now').mockImplementation(() => realPerf() + skewMs);
  try {
    return await call();
  } finally {
    date.mockRestore();
    perf.mockRestore();
  }
}

describe('clock skew', () => {
  it('two stores whose local clocks are two hours apart share one quota exactly', async () => {
    const prefix = uniquePrefix('skew');
    const ahead: RateLimitStore = redisStore({ client: clients[0]!, prefix });
    const behind: RateLimitStore = redisStore({ client: clients[1]!, prefix });
    const limit: StoreLimit = { algorithm: 'token-bucket', limit: 4, windowMs: 60_000 };
    const start = performance.now();
    const decisions: Decision[] = [];
    for (let i = 0; i < 3; i++) {
      decisions.push(await skewed(3_600_000, () => ahead.take('shared', limit, 1)));
      decisions.push(await skewed(-3_600_000, () => behind.take('shared', limit, 1)));
    }
    const elapsed = performance.now() - start;
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, false, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([3, 2, 1, 0, 0, 0]);
    // Both refusals point at the same instant on Redis's clock: one unit = 15 s after the 4th take.
    const [a, b] = [decisions[4]!.retryAfterMs, decisions[5]!.retryAfterMs];
    for (const wait of [a, b]) {
      expect(wait).toBeLessThanOrEqual(15_000);
      expect(wait).toBeGreaterThanOrEqual(15_000 - elapsed - 1);
    }
    expect(Math.abs(a - b)).toBeLessThanOrEqual(elapsed + 1);

    // The key gate too: held by one, seen by the other. `gateWait`: "ms `key`'s gate stays closed",
    // so 5 s less the time between the two calls (bracketed here: a process that stalls a second
    // between them, beside the other unit files, no longer fails a fixed `> 4000`).
    const held = performance.now();
    expect(await skewed(3_600_000, () => ahead.holdGate('shared', 5000))).toBe(5000);
    const seen = await skewed(-3_600_000, () => behind.gateWait('shared'));
    const between = performance.now() - held;
    expect(seen).toBeGreaterThanOrEqual(5000 - between - 1);
    expect(seen).toBeLessThanOrEqual(5000);
  });
});

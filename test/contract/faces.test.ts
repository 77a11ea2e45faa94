/**
 * One contract, three faces of the same engine: `createFetch`, `undici.request` through
 * `headwayInterceptor`, and the built-in `fetch` under `installGlobal`. Each runs the gate contract
 * against the reference server over loopback: 51 calls fill a fixed window of 51 per 2 s, the 52nd
 * is refused with `Retry-After: 2`, and then neither it nor the 50 queued behind it reach the
 * server before the 2 s are up; all 102 succeed. Client and server share a manual clock, so "2 s" is
 * exact and nothing sleeps. `npm test` runs on every supported Node line, so this is the built-in
 * `fetch` of each line (Node 22: undici 6, 24: undici 7, 26: undici 8) under `installGlobal`.
 */
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import type { EngineEvents } from '../../src/client/engine.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { startServer } from '../../src/server/index.js';
import type { InterceptorOptions } from '../../src/undici/index.js';
import { headwayInterceptor, installGlobal } from '../../src/undici/index.js';
import { runUntilSettled } from '../client/fake-server.js';

/** A face: how to GET a URL (settling with the status, body read) and its events. */
interface Face extends EngineEvents {
  get(url: string): Promise<number>;
  close(): Promise<void> | void;
}

const faces: Record<string, (options: InterceptorOptions) => Face> = {
  createFetch(options) {
    const fetch = createFetch(options);
    return Object.assign(Object.create(null), fetch, {
      get: async (url: string) => {
        const response = await fetch(url);
        await response.arrayBuffer();
        return response.status;
      },
      close: () => {},
      stats: fetch.stats,
    });
  },
  'undici.request through the interceptor'(options) {
    const interceptor = headwayInterceptor(options);
    const agent = new Agent();
    const dispatcher = agent.compose(interceptor);
    return Object.assign(Object.create(null), interceptor, {
      get: async (url: string) => {
        const response = await request(url, { dispatcher });
        await response.body.dump();
        return response.statusCode;
      },
      close: () => agent.close(),
      stats: interceptor.stats,
    });
  },
  'built-in fetch under installGlobal'(options) {
    const uninstall = installGlobal(options);
    return Object.assign(Object.create(null), uninstall, {
      get: async (url: string) => {
        const response = await globalThis.fetch(url);
        await response.arrayBuffer();
        return response.status;
      },
      close: () => uninstall(),
      stats: uninstall.stats,
    });
  },
};

let open: Face | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe.each(Object.keys(faces))('%s', (name) => {
  it('holds every call on the key for the whole Retry-After, and all succeed', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const arrivals: number[] = [];
    const server = await startServer({
      algorithm: 'fixed-window',
      burst: 51,
      windowMs: 2000,
      headers: 'none',
      clock,
      limiter: { onDecision: () => arrivals.push(clock.now()) },
    });
    try {
      const face = faces[name]!({ clock, random: () => 0 });
      open = face;
      const first = await runUntilSettled(
        clock,
        Array.from({ length: 51 }, () => face.get(`${server.url}/a`)),
        0,
      );
      expect(first.map((r) => (r.status === 'fulfilled' ? r.value : r.reason))).toEqual(Array(51).fill(200));

      const limited: number[] = [];
      face.onRateLimited((e) => limited.push(e.retryAfterMs ?? -1));
      const refused = face.get(`${server.url}/b`);
      while (limited.length === 0) await clock.advance(0);
      expect(limited).toEqual([2000]);
      const refusedAt = clock.now();
      const queued = Array.from({ length: 50 }, () => face.get(`${server.url}/c`));
      const seenBefore = arrivals.length;

      await clock.advance(1999);
      expect(arrivals.length).toBe(seenBefore);

      const results = await runUntilSettled(clock, [refused, ...queued], 1);
      expect(results.map((r) => (r.status === 'fulfilled' ? r.value : r.reason))).toEqual(
        Array(51).fill(200),
      );
      const after = arrivals.slice(seenBefore);
      expect(after).toHaveLength(51);
      expect(Math.min(...after) - refusedAt).toBeGreaterThanOrEqual(2000);
      const [stats] = face.stats();
      expect(stats).toMatchObject({ key: server.url, sent: 103, rateLimited: 1, retries: 1 });
    } finally {
      await server.close();
    }
  });
});

/**
 * Issue #12, contract: an unconfigured client against each kind of server the reference server
 * runs, over real loopback HTTP — buckets (token bucket, GCRA: 200/s, burst 20) and windows (fixed
 * window, sliding log: 100 per 500 ms, which the IETF dialects state as `q=200;w=1`). 400 GETs
 * from 16 workers. Asserted: every call succeeds, the server refused at most one window's limit
 * (or the burst). Which model the client settled on is timing-dependent over real HTTP, so it is
 * asserted in the unit tests on the manual clock, not here; the wall time is only a loose sanity
 * bound, the timing targets are the benchmark's (`npm run bench`).
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import type { AlgorithmName } from '../../src/index.js';
import { type HeaderDialect, startServer } from '../../src/server/index.js';

const N = 400;
const WORKERS = 16;

interface Kind {
  algorithm: AlgorithmName;
  /** Server options: a bucket's rate and burst, or a window's limit (`burst`) and length. */
  server: { rate: number; burst: number; windowMs?: number };
  /** The most refusals allowed: one window's limit, or the burst. */
  maxRefused: number;
  minSeconds: number;
}

const bucket = (algorithm: AlgorithmName): Kind => ({
  algorithm,
  server: { rate: 200, burst: 20 },
  maxRefused: 20,
  minSeconds: (N - 20) / 200,
});
const window = (algorithm: AlgorithmName): Kind => ({
  algorithm,
  server: { rate: 200, burst: 100, windowMs: 500 },
  maxRefused: 100,
  minSeconds: (Math.ceil(N / 100) - 1) * 0.5,
});

describe.each([
  ['token-bucket', bucket('token-bucket'), 'ietf'],
  ['gcra', bucket('gcra'), 'x-ratelimit'],
  ['fixed-window', window('fixed-window'), 'ietf'],
  ['fixed-window', window('fixed-window'), 'draft-7'],
  ['sliding-log', window('sliding-log'), 'ietf'],
] as const)('%s, %s', (_name, kind: Kind, headers: HeaderDialect) => {
  it('completes every call and refuses at most a window (or the burst)', async () => {
    const server = await startServer({ algorithm: kind.algorithm, headers, ...kind.server });
    try {
      const fetch = createFetch();
      let next = 0;
      let failed = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: WORKERS }, async () => {
          while (next++ < N) {
            const res = await fetch(`${server.url}/items`);
            if (res.status !== 200) failed++;
            await res.arrayBuffer();
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      expect(failed).toBe(0);
      expect(server.metrics().refused).toBeLessThanOrEqual(kind.maxRefused);
      expect(seconds).toBeLessThan(kind.minSeconds * 3 + 2);
    } finally {
      await server.close();
    }
  });
});

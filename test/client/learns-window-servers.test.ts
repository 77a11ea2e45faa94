/**
 * An unconfigured client against the reference limiter's window algorithms, both on the manual
 * clock: 16 callers, 400 calls, 1 ms each way. What the models decide is asserted as refusals and
 * completion (the wall time belongs to the benchmark, S6).
 */
import { describe, expect, it } from 'vitest';
import { epochResetNoProbeFloorMs } from '../../bench/lib/server-kinds.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { createFetch } from '../../src/index.js';
import { type AlgorithmName, type HeaderDialect, rateLimit } from '../../src/server/index.js';

/** A seeded generator of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 16_807) % 2_147_483_647;
    return state / 2_147_483_647;
  };
}

/**
 * A slow, loaded host: each way takes 0.3 ms plus up to `jitterMs` more (so answers overtake each
 * other, on the way there and back), and the server handles one request at a time, 0.7–1.3 ×
 * `serverMs` each, drawn from the seed `seed`.
 */
interface SlowHost {
  jitterMs: number;
  serverMs: number;
  seed: number;
}

/** The server's window, and its wall clock's lead over its monotonic one (mod 1 s). */
interface WindowShape {
  windowMs: number;
  wallOffsetMs: number;
}

/** When the first request reaches the server: 1 ms into a window of the limiter's clock, as S6 starts. */
const STARTED_AT = 10_000_002;

/**
 * Runs `n` calls from `callers` callers against `algorithm` (100 per 500 ms unless `shape` says
 * otherwise); returns the 429s seen and when the last call was admitted, from {@link STARTED_AT}.
 */
async function run(
  algorithm: AlgorithmName,
  headers: HeaderDialect,
  n = 400,
  callers = 16,
  configured: { rate: number; burst: number } | null = null,
  host: SlowHost | null = null,
  shape: WindowShape = { windowMs: 500, wallOffsetMs: 999 },
) {
  const start = STARTED_AT - 1;
  const clock = new ManualClock(start, Date.UTC(2026, 0, 1) + start + shape.wallOffsetMs);
  const limiter = rateLimit({ policy: { limit: 100, windowMs: shape.windowMs }, algorithm, headers, clock });
  let refused = 0;
  let lastAdmittedAt = Number.NaN;
  const delays = seeded(host?.seed ?? 1);
  const oneWay = () => (host ? 0.3 + delays() * host.jitterMs : 1);
  let serverFreeAt = 0;
  const transport = async (input: RequestInfo | URL) => {
    await clock.sleep(oneWay());
    if (host) {
      serverFreeAt = Math.max(clock.now(), serverFreeAt) + host.serverMs * (0.7 + 0.6 * delays());
      await clock.sleep(serverFreeAt - clock.now());
    }
    const outcome = await limiter.check(
      { method: 'GET', url: String(input), headers: new Headers() },
      { ip: '1' },
    );
    if (outcome.allowed) lastAdmittedAt = clock.now();
    else refused++;
    await clock.sleep(oneWay());
    return new Response(null, { status: outcome.status, headers: new Headers([...outcome.headers]) });
  };
  const random = seeded(1);
  const fetch = createFetch({ fetch: transport, clock, random, ...configured });
  let next = 0;
  let ok = 0;
  const caller = async () => {
    while (next < n) {
      next++;
      if ((await fetch('http://api.test/items')).ok) ok++;
    }
  };
  let done = false;
  const all = Promise.all(Array.from({ length: callers }, caller)).then(() => {
    done = true;
  });
  for (let ms = 0; !done && ms < 60_000; ms++) await clock.advance(1);
  await all;
  // What paces the key at the end: `window` once the server's window governs it.
  return { ok, refused, source: fetch.stats()[0]?.learned.source, finishedMs: lastAdmittedAt - STARTED_AT };
}

describe('learning a window server', () => {
  it.each([
    ['fixed-window', 'ietf'],
    ['sliding-log', 'draft-6'],
    ['sliding-window-counter', 'ietf'],
    ['sliding-window-counter', 'draft-7'],
  ] as const)('%s (%s): every call succeeds, none refused', async (algorithm, headers) => {
    expect(await run(algorithm, headers)).toMatchObject({ ok: 400, refused: 0 });
  });
});

describe('learning a window server from a slow, loaded host', () => {
  // Answers that overtake each other, and a first window spent over a third of its length: the
  // ledger's returns then keep pace with a count that creeps back for a while.
  const host = (seed: number): SlowHost => ({ jitterMs: 6, serverMs: 1.1, seed });
  const seeds = [1, 2, 3, 4, 5, 6, 7, 8];
  it.each([
    ['sliding-window-counter', 'ietf'],
    ['fixed-window', 'ietf'],
    ['sliding-log', 'ietf'],
  ] as const)(
    '%s (%s): every call succeeds, none refused, whatever the delays',
    async (algorithm, headers) => {
      for (const seed of seeds)
        expect({ seed, ...(await run(algorithm, headers, 400, 16, null, host(seed))) }).toMatchObject({
          seed,
          ok: 400,
          refused: 0,
        });
    },
  );
});

describe('a client configured as a bucket against a window server', () => {
  // In `x-ratelimit` (no window, no rate stated, the reset in whole seconds) the window is read as
  // limit / rate = 500 ms long, the configured figure's prior.
  it.each([
    ['fixed-window', 'ietf'],
    ['sliding-log', 'draft-6'],
    ['fixed-window', 'x-ratelimit'],
    ['sliding-log', 'x-ratelimit'],
  ] as const)(
    '%s (%s): the window replaces the bucket, every call succeeds, none refused',
    async (algorithm, headers) => {
      // The natural reading of "100 per 500 ms": 200/s, a fifth of it at once.
      expect(await run(algorithm, headers, 400, 16, { rate: 200, burst: 20 })).toMatchObject({
        ok: 400,
        refused: 0,
        source: 'window',
      });
    },
  );
});

describe('a client configured above the rate of a window server that states no window', () => {
  it.each(['fixed-window', 'sliding-log'] as const)(
    '%s (x-ratelimit): the prior window (100 / 400 per second = 250 ms) is refused once, then the resets pace',
    async (algorithm) => {
      const { ok, refused } = await run(algorithm, 'x-ratelimit', 400, 16, { rate: 400, burst: 20 });
      expect(ok).toBe(400);
      expect(refused).toBeLessThanOrEqual(1);
    },
  );
});

describe('a fixed window whose reset is stated in whole epoch seconds (x-ratelimit), at every phase', () => {
  // No client that never sends before a stated reset beats the no-probe floor (README Limits); an
  // unconfigured Headway reaches it within its last window's round trips, wherever the server's
  // windows end within the epoch second. S6 runs this job in real time (one run read a window late).
  const phases = [0, 50, 300, 700, 945, 999];
  it.each([500, 1000])(
    '100 per %i ms: 1,000 calls, none refused, within 50 ms of the floor',
    async (windowMs) => {
      for (const wallOffsetMs of phases) {
        const { ok, refused, finishedMs } = await run('fixed-window', 'x-ratelimit', 1000, 16, null, null, {
          windowMs,
          wallOffsetMs,
        });
        const floorMs = epochResetNoProbeFloorMs(1000, { limit: 100, windowMs }, STARTED_AT, wallOffsetMs);
        expect({ wallOffsetMs, ok, refused }).toEqual({ wallOffsetMs, ok: 1000, refused: 0 });
        expect(finishedMs - floorMs).toBeGreaterThanOrEqual(0);
        expect(finishedMs - floorMs).toBeLessThanOrEqual(50);
      }
    },
  );
});

/**
 * The behaviour every {@link RateLimitStore} must show, as one suite to run against each store:
 * `describeStoreContract('redis', () => ({ store: redisStore(...), time: redisTime(client) }))`. Time is the
 * store's: a store that takes a clock runs on a {@link ManualClock} (exact, nothing sleeps); one
 * that owns its clock (Redis `TIME`) runs on real time, and exactness is checked by bracketing: the
 * store's elapsed time between two calls lies between the time from the first reply to the second
 * request and the time from the first request to the second reply, read on the store's own clock
 * when it has one ({@link redisTime}). Windows are long enough that no bracket depends on the speed
 * of the machine.
 */
import { describe, expect, it } from 'vitest';
import type { ManualClock } from '../../src/core/manual-clock.js';
import type { AlgorithmName, Decision, RateLimitStore, StoreLimit } from '../../src/stores/store.js';
import { redisTimeMs } from '../support/redis.js';

const ALGORITHMS: readonly AlgorithmName[] = [
  'token-bucket',
  'gcra',
  'fixed-window',
  'sliding-window-counter',
  'sliding-log',
];

/** How the suite reads and moves the store's time. */
export interface ContractTime {
  now(): number;
  /**
   * The store's own clock, for a store that owns one (Redis `TIME`): calls are bracketed on it,
   * so a store clock that runs at another rate than ours (a wall clock being slewed) cannot move
   * the bracket.
   */
  storeNow?(): Promise<number>;
  /** Lets `ms` pass for the store. */
  sleep(ms: number): Promise<void>;
}

/** Real time, for a store that owns its clock. */
export const realTime: ContractTime = {
  now: () => performance.now(),
  sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

/**
 * Real time, with calls bracketed on Redis's own clock (`TIME`): the Redis host's wall clock,
 * which may run at another rate than this process's monotonic one while it is slewed (0.5 %
 * measured on a VM here, enough to move a bracket read on our clock by a millisecond).
 */
export const redisTime = (client: { time(): Promise<unknown> }): ContractTime => ({
  ...realTime,
  storeNow: () => redisTimeMs(client),
});

/** A manual clock's time: `sleep` advances it. */
export const manualTime = (clock: ManualClock): ContractTime => ({
  now: () => clock.now(),
  sleep: (ms) => clock.advance(Math.max(0, ms)),
});

/** A store under test and the time it runs on. */
export interface ContractStore {
  store: RateLimitStore;
  time: ContractTime;
}

/** One call, with the times it was sent (`sent`) and answered (`answered`). */
interface Timed<T> {
  value: T;
  sent: number;
  answered: number;
}

async function timed<T>(time: ContractTime, call: () => Promise<T>): Promise<Timed<T>> {
  const read = () => (time.storeNow ? time.storeNow() : time.now());
  const sent = await read();
  const value = await call();
  return { value, sent, answered: await read() };
}

let counter = 0;
function freshKey(label: string): string {
  counter += 1;
  return `contract-${label}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Upper bound of units admitted over `t` ms by one key under `limit`, per algorithm. */
function admittedBound(limit: StoreLimit, t: number): number {
  const { limit: l, windowMs: w } = limit;
  switch (limit.algorithm) {
    case 'token-bucket':
    case 'gcra':
      return l + (l * t) / w; // burst + rate·t
    case 'sliding-log':
      return l * (Math.floor(t / w) + 1); // every window of w ms holds at most l
    case 'fixed-window':
    case 'sliding-window-counter':
      return l * (Math.floor(t / w) + 2); // at most l per fixed window touched
  }
}

/** Runs the store contract against the stores `makeStore` returns (called once per test). */
export function describeStoreContract(name: string, makeStore: () => ContractStore): void {
  describe(`${name}: store contract`, () => {
    describe.each(['token-bucket', 'gcra'] as const)('%s', (algorithm) => {
      it('takes the burst, counts remaining down, then refuses with the exact retryAfter', async () => {
        const { store, time } = makeStore();
        const key = freshKey(algorithm);
        const limit: StoreLimit = { algorithm, limit: 10, windowMs: 100_000 }; // one unit per 10 s
        const start = time.now();
        for (let i = 1; i <= 10; i++) {
          const decision = await store.take(key, limit, 1);
          expect(decision).toMatchObject({ allowed: true, limit: 10, remaining: 10 - i, retryAfterMs: 0 });
        }
        const one = await store.take(key, limit, 1);
        const three = await store.take(key, limit, 3);
        const elapsed = time.now() - start;
        expect(elapsed).toBeLessThan(9_000); // else a unit came back and the bracket below is meaningless
        for (const [decision, units] of [
          [one, 1],
          [three, 3],
        ] as const) {
          expect(decision.allowed).toBe(false);
          expect(decision.remaining).toBe(0);
          // Exact: units·10 s after the bucket emptied, less the time since (≤ elapsed).
          expect(decision.retryAfterMs).toBeLessThanOrEqual(units * 10_000);
          expect(decision.retryAfterMs).toBeGreaterThanOrEqual(units * 10_000 - elapsed - 1);
          expect(decision.resetMs).toBeLessThanOrEqual(100_000);
          expect(decision.resetMs).toBeGreaterThanOrEqual(100_000 - elapsed - 1);
        }
      });

      it('reservations queue: waits add up, and a take after them waits behind them', async () => {
        const { store, time } = makeStore();
        const key = freshKey(`${algorithm}-reserve`);
        const limit: StoreLimit = { algorithm, limit: 10, windowMs: 10_000 }; // 1 s per unit
        const start = time.now();
        for (let i = 0; i < 10; i++) expect((await store.reserve(key, limit, 1)).waitMs).toBe(0);
        const waits: number[] = [];
        for (let i = 0; i < 5; i++) waits.push((await store.reserve(key, limit, 1)).waitMs);
        const bulk = (await store.reserve(key, limit, 3)).waitMs;
        const after = await store.take(key, limit, 1);
        const elapsed = time.now() - start;
        const expected = [1000, 2000, 3000, 4000, 5000, 8000];
        [...waits, bulk].forEach((wait, i) => {
          expect(wait).toBeLessThanOrEqual(expected[i]!);
          expect(wait).toBeGreaterThanOrEqual(expected[i]! - elapsed - 1);
        });
        expect(after.allowed).toBe(false);
        expect(after.retryAfterMs).toBeLessThanOrEqual(9000);
        expect(after.retryAfterMs).toBeGreaterThanOrEqual(9000 - elapsed - 1);
      });

      it('a give-back returns booked units to the next booking, never beyond a full bucket', async () => {
        const { store, time } = makeStore();
        const giveBack = store.giveBack!.bind(store);
        const key = freshKey(`${algorithm}-give-back`);
        const limit: StoreLimit = { algorithm, limit: 10, windowMs: 10_000 }; // 1 s per unit
        const start = time.now();
        for (let i = 0; i < 10; i++) await store.reserve(key, limit, 1);
        const booked = [];
        for (let i = 0; i < 3; i++) booked.push((await store.reserve(key, limit, 1)).waitMs);
        // The two calls booked last are never sent: their units come back.
        await giveBack(key, limit, 2);
        const next = (await store.reserve(key, limit, 1)).waitMs;
        const elapsed = time.now() - start;
        // Due at 2 s, where the second of the three was (4 s without the give-back).
        expect(next).toBeLessThanOrEqual(2000);
        expect(next).toBeGreaterThanOrEqual(2000 - elapsed - 1);
        expect(booked[1]).toBeGreaterThanOrEqual(2000 - elapsed - 1);

        // A fresh key is full: a give-back adds nothing to its burst.
        const fresh = freshKey(`${algorithm}-give-back-full`);
        await giveBack(fresh, limit, 5);
        const taken = [];
        for (let i = 0; i < 11; i++) taken.push((await store.take(fresh, limit, 1)).allowed);
        expect(taken.filter(Boolean)).toHaveLength(10);
        expect(taken[10]).toBe(false);
      });
    });

    // TSDoc of `Decision.retryAfterMs`: "the exact ms until a retry of the same cost is admitted".
    it('token bucket keeps fractional units', async () => {
      const { store, time } = makeStore();
      const key = freshKey('fraction');
      const limit: StoreLimit = { algorithm: 'token-bucket', limit: 1, windowMs: 60_000 };
      const first = await timed(time, () => store.take(key, limit, 0.5));
      expect(first.value.allowed).toBe(true);
      expect((await store.take(key, limit, 0.25)).allowed).toBe(true);
      expect((await store.take(key, limit, 0.25)).allowed).toBe(true);
      const refused = await timed(time, () => store.take(key, limit, 0.5));
      expect(refused.value.allowed).toBe(false);
      // Exact: half a unit (30 s) after the bucket emptied, less the refill since the first take,
      // which is at most the store's time from the first take's request to the refusal's reply
      // (on real time, a machine that stalls a second in between no longer fails a `> 29_000`).
      const elapsed = refused.answered - first.sent;
      expect(refused.value.retryAfterMs).toBeGreaterThanOrEqual(30_000 - elapsed - 1);
      expect(refused.value.retryAfterMs).toBeLessThanOrEqual(30_000);
    });

    describe.concurrent.each(ALGORITHMS)('%s', (algorithm) => {
      it('refuses past the limit; retryAfterMs counts down with time and is exact', async ({ expect }) => {
        const { store, time } = makeStore();
        const limit: StoreLimit = { algorithm, limit: 2, windowMs: 1000 };
        // Fill until refused (a fixed window may roll over meanwhile: bounded).
        const key = freshKey(`${algorithm}-exact`);
        let first: Timed<Decision> | undefined;
        for (let i = 0; i < 8 && !first; i++) {
          const call = await timed(time, () => store.take(key, limit, 1));
          if (!call.value.allowed) first = call;
        }
        if (!first) throw new Error(`${algorithm}: never refused after 8 takes of a limit of 2`);
        const r1 = first.value.retryAfterMs;
        expect(r1).toBeGreaterThan(0);
        expect(r1).toBeLessThanOrEqual(2000);
        expect(first.value.remaining).toBe(0);

        // Just before r1: refused, with the same target time (bracketed).
        await time.sleep(r1 - 25);
        const second = await timed(time, () => store.take(key, limit, 1));
        if (!second.value.allowed) {
          const r2 = second.value.retryAfterMs;
          expect(r2).toBeGreaterThanOrEqual(r1 - (second.answered - first.sent) - 1);
          expect(r2).toBeLessThanOrEqual(r1 - (second.sent - first.answered) + 1);
          // At r2: admitted.
          await time.sleep(r2 + 1);
          const third = await store.take(key, limit, 1);
          expect(third.allowed).toBe(true);
        } else {
          // Only possible when the machine was slow enough that r1 ms had passed for the store.
          expect(second.answered - first.sent).toBeGreaterThanOrEqual(r1 - 1);
        }
      });

      it('admits no more than its bound under concurrent load', async ({ expect }) => {
        const { store, time } = makeStore();
        const key = freshKey(`${algorithm}-bound`);
        const limit: StoreLimit = { algorithm, limit: 5, windowMs: 100 };
        // 35 rounds of 16 concurrent takes, 10 ms apart (on real time: at least 10 ms apart).
        const start = time.now();
        let allowed = 0;
        let refused = 0;
        for (let round = 0; round < 35; round++) {
          if (round > 0) await time.sleep(10);
          const decisions = await Promise.all(Array.from({ length: 16 }, () => store.take(key, limit, 1)));
          for (const decision of decisions) {
            if (decision.allowed) allowed++;
            else {
              refused++;
              expect(decision.retryAfterMs).toBeGreaterThan(0);
            }
          }
        }
        const t = time.now() - start;
        expect(allowed).toBeLessThanOrEqual(Math.floor(admittedBound(limit, t) + 1e-6));
        expect(allowed).toBeGreaterThanOrEqual(limit.limit);
        expect(refused).toBeGreaterThan(0);
      });
    });

    it('keys are independent', async () => {
      const { store } = makeStore();
      const limit: StoreLimit = { algorithm: 'token-bucket', limit: 1, windowMs: 60_000 };
      const a = freshKey('a');
      const b = freshKey('b');
      expect((await store.take(a, limit, 1)).allowed).toBe(true);
      expect((await store.take(a, limit, 1)).allowed).toBe(false);
      expect((await store.take(b, limit, 1)).allowed).toBe(true);
    });

    it('rejects a cost that could never be admitted', async () => {
      const { store } = makeStore();
      for (const algorithm of ALGORITHMS) {
        const limit: StoreLimit = { algorithm, limit: 3, windowMs: 1000 };
        for (const cost of [0, -1, 4, Number.NaN]) {
          await expect(store.take(freshKey('cost'), limit, cost)).rejects.toMatchObject({
            code: 'HEADWAY_INVALID_COST',
          });
        }
      }
    });

    it('reserve and giveBack are for token-bucket and gcra only', async () => {
      const { store } = makeStore();
      for (const algorithm of ['fixed-window', 'sliding-window-counter', 'sliding-log'] as const) {
        const limit: StoreLimit = { algorithm, limit: 3, windowMs: 1000 };
        await expect(store.reserve(freshKey('reserve'), limit, 1)).rejects.toMatchObject({
          code: 'HEADWAY_UNSUPPORTED_ALGORITHM',
          operation: 'reserve',
        });
        await expect(store.giveBack!(freshKey('give-back'), limit, 1)).rejects.toMatchObject({
          code: 'HEADWAY_UNSUPPORTED_ALGORITHM',
          operation: 'giveBack',
        });
      }
    });

    describe('key gate', () => {
      it('is open for a fresh key', async () => {
        const { store } = makeStore();
        expect(await store.gateWait(freshKey('gate'))).toBe(0);
      });

      it('only extends, and reports the ms left closed', async () => {
        const { store, time } = makeStore();
        const key = freshKey('gate');
        const start = time.now();
        expect(await store.holdGate(key, 40_000)).toBe(40_000);
        const shorter = await store.holdGate(key, 10_000);
        const wait = await store.gateWait(key);
        const elapsed = time.now() - start;
        expect(elapsed).toBeLessThan(30_000); // else the shorter hold may have outlived the first
        for (const left of [shorter, wait]) {
          expect(left).toBeLessThanOrEqual(40_000);
          expect(left).toBeGreaterThanOrEqual(40_000 - elapsed - 1);
        }
        const extendedAt = time.now();
        expect(await store.holdGate(key, 100_000)).toBe(100_000);
        const left = await store.holdGate(key, 0);
        expect(left).toBeLessThanOrEqual(100_000);
        expect(left).toBeGreaterThanOrEqual(100_000 - (time.now() - extendedAt) - 1);
      });

      it('opens again when its time is over', async () => {
        const { store, time } = makeStore();
        const key = freshKey('gate');
        expect(await store.holdGate(key, 30)).toBe(30);
        await time.sleep(60);
        expect(await store.gateWait(key)).toBe(0);
      });
    });
  });
}

/**
 * A key's quota shared through a {@link RateLimitStore} (e.g. Redis): every process draws its
 * pacing from one atomic bucket and sees one gate, so a 429 seen by one worker pauses all.
 *
 * Bookings are spaced at the rate (a burst of 2), and each process keeps at most its share of the
 * burst, less a margin, booked or in flight, so the server's own bucket stays near full.
 *
 * The rate and burst are configured, or learned: with no `rate`, the key shares only its gate
 * until its pacer has learned the server's figures from its headers, then books from the shared
 * bucket at the learned rate ({@link SharedQuota.learn}), re-synced whenever the figures change.
 *
 * If the store fails, or is slow twice in a row, the key falls back to local pacing at
 * `rate / expectedWorkers` (so N workers together still stay near the quota) and tries the store
 * again after a second. No call waits on a store that is down for longer than the store's own
 * timeout (or this module's 1 s deadline).
 */
import type { Clock } from '../core/clock.js';
import { type BucketConfig, windowOf } from '../core/limit.js';
import { withTimeout } from '../core/timeout.js';
import type { BucketState } from '../core/token-bucket.js';
import { giveBack, reserve } from '../core/token-bucket.js';
import { isHeadwayError, StoreTimeoutError } from '../errors.js';
import type { RateLimitSignal } from '../signals/signal.js';
import type { RateLimitStore, StoreLimit } from '../stores/store.js';
import { REQUESTS } from './cost.js';
import type { PacerSnapshot } from './pacer.js';

/** After a store failure, calls use the local fallback this long before the store is tried again. */
const RETRY_STORE_AFTER_MS = 1000;
/** Store calls in a row that time out before the store counts as down (any other failure: one). */
const SLOW_ANSWERS_FOR_DOWN = 2;
/** A store call that has not answered by then counts as failed (a store's own timeout should be shorter). */
const STORE_DEADLINE_MS = 1000;
/** Units of the server's burst kept out of reach of the fleet (at least 2): the margin against bunching. */
const SHARED_MARGIN = 0.25;
/** Largest burst of bookings the shared bucket grants at once: near strict spacing. */
const SHARED_BOOKING_BURST = 2;
/** A learned rate or burst that moves by less than this share keeps the current booking figures. */
const RESYNC_CHANGE = 0.1;

/** A quota's sustained rate (units/s) and burst (units at once). */
export interface QuotaFigures {
  rate: number;
  burst: number;
}

/** What one booking took, and from where: given back if its call is never sent. */
export interface SharedBooking {
  cost: number;
  /** Booked in the local fallback (the store was down), not in the store. */
  fallback: boolean;
}

/** How a process books from the shared bucket at given figures. */
interface Booking {
  figures: QuotaFigures;
  limit: StoreLimit;
  fallbackConfig: BucketConfig;
  inFlightShare: number;
}

function bookingFor(figures: QuotaFigures, expectedWorkers: number): Booking {
  const { rate, burst } = figures;
  // Bookings are spaced at the rate with almost no burst, so the server's bucket stays near full
  // and absorbs requests that reach it closer together than they were booked (network and
  // scheduling jitter across processes). "rate/s with a burst of C" is C units per C/rate seconds.
  const limit: StoreLimit = {
    algorithm: 'token-bucket',
    ...windowOf({ rate, burst: Math.min(SHARED_BOOKING_BURST, burst) }),
  };
  // In flight, requests escape the spacing: a stalled server (or network) lets them pile up and a
  // full server bucket cannot bank refill for them. The fleet keeps at most the burst minus a margin
  // in flight (booked or sent), each process its share of it.
  const margin = Math.max(2, Math.floor(burst * SHARED_MARGIN));
  const share = Math.max(1, expectedWorkers);
  return {
    figures,
    limit,
    fallbackConfig: { rate: rate / share, burst: Math.max(1, burst / share) },
    inFlightShare: Math.max(1, Math.floor((burst - margin) / share)),
  };
}

/**
 * The shared bucket a call of `cost` books from, and what it books: the spaced bucket (a burst of
 * 2) for the usual call; a call that costs more books its whole cost from a bucket that holds it
 * (at most the quota's burst, all a call can ever book), still refilled at the rate.
 */
function bookingLimit(booking: Booking, cost: number): { store: StoreLimit; cost: number } {
  if (cost <= booking.limit.limit) return { store: booking.limit, cost };
  const { rate, burst } = booking.figures;
  const held = Math.min(burst, cost);
  return { store: { algorithm: 'token-bucket', ...windowOf({ rate, burst: held }) }, cost: held };
}

/** The local fallback bucket a call of `cost` books from: the process's share, or its whole cost when more. */
function fallbackLimit(booking: Booking, cost: number): BucketConfig {
  const { fallbackConfig } = booking;
  return cost > fallbackConfig.burst ? { ...fallbackConfig, burst: cost } : fallbackConfig;
}

const movedFrom = (was: number, now: number) => Math.abs(now - was) > was * RESYNC_CHANGE;

/**
 * The figures a fleet may book at, from what one process's pacer learned: a request rate the server
 * stated (a policy, or a window's limit per window) and a burst. Not an estimate from how
 * `remaining` moved against this process's own sends (in a fleet, the others' sends make the
 * server look slower than it is), nor the floor a reset implies (far below the rate at first).
 */
function fleetFigures(learned: PacerSnapshot): QuotaFigures | null {
  const { rate, burst, source, unit } = learned;
  if (unit !== REQUESTS || rate === null || burst === null || !(rate > 0) || !(burst >= 1)) return null;
  return source === 'policy' || source === 'window' ? { rate, burst } : null;
}

/** Shared pacing and gate of one key. */
export class SharedQuota {
  readonly #store: RateLimitStore;
  readonly #key: string;
  readonly #clock: Clock;
  readonly #expectedWorkers: number;
  /** How bookings are made; `null` while the figures are still to be learned (only the gate is shared). */
  #booking: Booking | null;
  #fallback: BucketState;
  /** The store answered the last call (or none was made yet): the next failure empties the fallback. */
  #storeWasUp = true;
  #downUntil = Number.NEGATIVE_INFINITY;
  #failures = 0;
  #slowInARow = 0;
  /** The server reported a window in units other than requests (learned figures only). */
  #otherUnits = false;

  /** `figures`: the configured rate and burst, or `null` to learn them ({@link SharedQuota.learn}). */
  constructor(
    store: RateLimitStore,
    key: string,
    figures: QuotaFigures | null,
    expectedWorkers: number,
    clock: Clock,
  ) {
    this.#store = store;
    this.#key = key;
    this.#clock = clock;
    this.#expectedWorkers = expectedWorkers;
    this.#booking = figures ? bookingFor(figures, expectedWorkers) : null;
    this.learns = figures === null;
    // Emptied again whenever the store starts failing (see `#call`).
    this.#fallback = { tokens: 0, updatedAt: clock.now() };
  }

  /** True when the figures are learned from the server, not configured. */
  readonly learns: boolean;

  /** True once bookings pace the key (figures configured or learned); before, only the gate is shared. */
  get paces(): boolean {
    return this.#booking !== null;
  }

  /**
   * Most calls this process may have booked or in flight at once (its share of the burst less the
   * margin); unbounded while nothing paces the key.
   */
  get inFlightShare(): number {
    return this.#booking?.inFlightShare ?? Number.POSITIVE_INFINITY;
  }

  /**
   * Shares what an answer taught the key's pacer (`learned`, its snapshot after `signal`), for a
   * quota that {@link SharedQuota.learns}: until bookings pace the key, a window the server reports
   * exhausted closes the shared gate until that window resets; once the pacer knows the server's
   * request rate and burst (and the server reports no window in other units, such as tokens),
   * bookings follow them. True when the booking figures changed (first learned, or moved by more
   * than 10 %: smaller moves keep the current ones), or bookings stopped (a window in other units
   * appeared after them: each process paces every window from its own view again).
   */
  learn(learned: PacerSnapshot, signal: RateLimitSignal | null): boolean {
    // Until bookings pace the key, each process paces alone: a window one of them sees exhausted
    // holds them all until it resets. Bookings then keep the fleet within the rate; a bucket's
    // `remaining` reads 0 at times, and a gate held until its reset (a whole refill) would stall it.
    if (signal && !this.paces) {
      const resetMs = Math.max(
        0,
        ...signal.policies.map((p) => (p.remaining === 0 ? (p.resetInMs ?? 0) : 0)),
      );
      if (resetMs > 0) this.holdGate(resetMs);
    }
    // Bookings count requests: a key whose server also counts other units (tokens) keeps each
    // process pacing every window from its own view, and shares only the gate.
    if (signal?.policies.some((p) => p.unit !== REQUESTS) && !this.#otherUnits) {
      this.#otherUnits = true;
      // Bookings learned at the request figures stop: each process paces every window again.
      if (this.#booking !== null) {
        this.#booking = null;
        return true;
      }
    }
    const figures = this.#otherUnits ? null : fleetFigures(learned);
    if (!figures) return false;
    const was = this.#booking?.figures;
    if (was && !movedFrom(was.rate, figures.rate) && !movedFrom(was.burst, figures.burst)) return false;
    this.#booking = bookingFor(figures, this.#expectedWorkers);
    return true;
  }

  /** True while the store is considered down and local fallback pacing is in use. */
  get degraded(): boolean {
    return this.#clock.now() < this.#downUntil;
  }

  /** Store failures seen so far. */
  get failures(): number {
    return this.#failures;
  }

  async #call<T>(operation: () => Promise<T>): Promise<T | undefined> {
    if (this.degraded) return undefined;
    try {
      const result = await withTimeout(
        operation,
        this.#clock,
        STORE_DEADLINE_MS,
        () => new StoreTimeoutError(this.#key, STORE_DEADLINE_MS, undefined),
      );
      this.#slowInARow = 0;
      this.#storeWasUp = true;
      return result;
    } catch (error) {
      this.#failures++;
      // The fallback starts empty when the store starts failing: the shared bucket may just have
      // been drained, and a full local bucket in every process would add a burst on top of it.
      if (this.#storeWasUp) this.#fallback = { tokens: 0, updatedAt: this.#clock.now() };
      this.#storeWasUp = false;
      // A store that refuses is down; one that is slow once (a busy machine) is only slow: this call
      // uses the fallback, and the store is left alone only when it is slow again.
      // By its code: a store from another entry (`headway/redis`) throws that entry's own class.
      const slow = isHeadwayError(error, 'HEADWAY_STORE_TIMEOUT');
      this.#slowInARow = slow ? this.#slowInARow + 1 : 0;
      if (!slow || this.#slowInARow >= SLOW_ANSWERS_FOR_DOWN)
        this.#downUntil = this.#clock.now() + RETRY_STORE_AFTER_MS;
      return undefined;
    }
  }

  /**
   * Books `cost` units unless the shared gate is closed: `gateMs` > 0 says the gate is closed (the
   * booking, asked in the same round trip, is then given back). `waitMs` is how long to wait before
   * sending; `booked`, what was booked ({@link giveBack} it if the call is never sent). From the
   * store, else the local fallback (gate open). Before any figures are known, only the gate is
   * asked (`waitMs` 0, nothing booked).
   */
  async book(cost: number): Promise<{ gateMs: number; waitMs: number; booked: SharedBooking | null }> {
    const booking = this.#booking;
    if (!booking) {
      // Nothing learned yet: the local pacer paces; only the gate is asked.
      const gateMs = await this.#call(() => this.#store.gateWait(this.#key));
      return { gateMs: gateMs ?? 0, waitMs: 0, booked: null };
    }
    const limit = bookingLimit(booking, cost);
    const shared = await this.#call(() =>
      Promise.all([this.#store.gateWait(this.#key), this.#store.reserve(this.#key, limit.store, limit.cost)]),
    );
    if (shared) {
      const booked = { cost, fallback: false };
      if (shared[0] <= 0) return { gateMs: 0, waitMs: shared[1].waitMs, booked };
      this.giveBack(booked);
      return { gateMs: shared[0], waitMs: shared[1].waitMs, booked: null };
    }
    // The whole cost, from a bucket that holds it (as `bookingLimit` books a costly call).
    const booked = reserve(this.#fallback, fallbackLimit(booking, cost), this.#clock.now(), cost);
    this.#fallback = booked.state;
    return { gateMs: 0, waitMs: booked.waitMs, booked: { cost, fallback: true } };
  }

  /**
   * Gives back what a booking took, for a call that was then never sent (its deadline, an abort, a
   * gate that closed), so the fleet's next bookings need not wait behind it: to the store, or to the
   * local fallback it was booked from. Best effort: a store without `giveBack`, or one that fails,
   * leaves the units booked.
   */
  giveBack({ cost, fallback }: SharedBooking): void {
    // At the figures booked at now: units booked before a re-learn go back to the bucket as it is
    // booked since (the store refills at the limit it is given). Bookings stopped: nothing to give.
    const booking = this.#booking;
    if (!booking) return;
    if (fallback) {
      this.#fallback = giveBack(this.#fallback, fallbackLimit(booking, cost), this.#clock.now(), cost);
      return;
    }
    const store = this.#store;
    const limit = bookingLimit(booking, cost);
    if (store.giveBack) void this.#call(() => store.giveBack!(this.#key, limit.store, limit.cost));
  }

  /**
   * ms until the shared gate opens (0 when open, or when the store cannot say: best effort). Not
   * asked again right after a failed call (the booking it follows came from the fallback): a call
   * never waits twice on a store that just failed.
   */
  async gateWait(): Promise<number> {
    if (!this.#storeWasUp) return 0;
    return (await this.#call(() => this.#store.gateWait(this.#key))) ?? 0;
  }

  /** Closes the shared gate for `ms` (best effort: a store failure leaves the local gate alone in charge). */
  holdGate(ms: number): void {
    void this.#call(() => this.#store.holdGate(this.#key, Math.ceil(ms)));
  }
}

/**
 * A key's quota shared through a {@link RateLimitStore} (e.g. Redis): every process draws its
 * pacing from one atomic bucket and sees one gate, so a 429 seen by one worker pauses all.
 *
 * Bookings are spaced at the rate (a burst of 2), and each process keeps at most its share of the
 * burst, less a margin, booked or in flight, so the server's own bucket stays near full.
 *
 * If the store fails, or is slow twice in a row, the key falls back to local pacing at
 * `rate / expectedWorkers` (so N workers together still stay near the quota) and tries the store
 * again after a second. No call waits on a store that is down for longer than the store's own
 * timeout (or this module's 1 s deadline).
 */
import type { Clock } from '../core/clock.js';
import { withTimeout } from '../core/timeout.js';
import type { BucketConfig, BucketState } from '../core/token-bucket.js';
import { reserve } from '../core/token-bucket.js';
import { StoreTimeoutError } from '../errors.js';
import type { RateLimitStore, StoreLimit } from '../stores/store.js';

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

/** Shared pacing and gate of one key. */
export class SharedQuota {
  readonly #store: RateLimitStore;
  readonly #key: string;
  readonly #limit: StoreLimit;
  readonly #clock: Clock;
  readonly #fallbackConfig: BucketConfig;
  #fallback: BucketState;
  #downUntil = Number.NEGATIVE_INFINITY;
  /** Most calls this process may have booked or in flight at once (its share of the burst less the margin). */
  readonly inFlightShare: number;
  #failures = 0;
  #slowInARow = 0;

  constructor(
    store: RateLimitStore,
    key: string,
    rate: number,
    burst: number,
    expectedWorkers: number,
    clock: Clock,
  ) {
    this.#store = store;
    this.#key = key;
    this.#clock = clock;
    // Bookings are spaced at the rate with almost no burst, so the server's bucket stays near full
    // and absorbs requests that reach it closer together than they were booked (network and
    // scheduling jitter across processes). "rate/s with a burst of C" is C units per C/rate seconds.
    const capacity = Math.min(SHARED_BOOKING_BURST, burst);
    this.#limit = { algorithm: 'token-bucket', limit: capacity, windowMs: (capacity / rate) * 1000 };
    // In flight, requests escape the spacing: a stalled server (or network) lets them pile up and a
    // full server bucket cannot bank refill for them. The fleet keeps at most the burst minus a margin
    // in flight (booked or sent), each process its share of it.
    const margin = Math.max(2, Math.floor(burst * SHARED_MARGIN));
    this.inFlightShare = Math.max(1, Math.floor((burst - margin) / Math.max(1, expectedWorkers)));
    const share = Math.max(1, expectedWorkers);
    this.#fallbackConfig = { capacity: Math.max(1, burst / share), refillPerSecond: rate / share };
    // The fallback starts empty: when the store first fails, the shared bucket may just have been
    // drained, and a full local bucket in every process would add a burst on top of it.
    this.#fallback = { tokens: 0, updatedAt: clock.now() };
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
      return result;
    } catch (error) {
      this.#failures++;
      // A store that refuses is down; one that is slow once (a busy machine) is only slow: this call
      // uses the fallback, and the store is left alone only when it is slow again.
      const slow = error instanceof StoreTimeoutError;
      this.#slowInARow = slow ? this.#slowInARow + 1 : 0;
      if (!slow || this.#slowInARow >= SLOW_ANSWERS_FOR_DOWN)
        this.#downUntil = this.#clock.now() + RETRY_STORE_AFTER_MS;
      return undefined;
    }
  }

  /**
   * Books `cost` units unless the shared gate is closed: `gateMs` > 0 says the gate is closed (the
   * booking, asked in the same round trip, is then given up: its slot stays unused). `waitMs` is how
   * long to wait before sending. From the store, else the local fallback (gate open).
   */
  async book(cost: number): Promise<{ gateMs: number; waitMs: number }> {
    const shared = await this.#call(() =>
      Promise.all([this.#store.gateWait(this.#key), this.#store.reserve(this.#key, this.#limit, cost)]),
    );
    if (shared) return { gateMs: shared[0], waitMs: shared[1].waitMs };
    const booked = reserve(
      this.#fallback,
      this.#fallbackConfig,
      this.#clock.now(),
      Math.min(cost, this.#fallbackConfig.capacity),
    );
    this.#fallback = booked.state;
    return { gateMs: 0, waitMs: booked.waitMs };
  }

  /** Closes the shared gate for `ms` (best effort: a store failure leaves the local gate alone in charge). */
  holdGate(ms: number): void {
    void this.#call(() => this.#store.holdGate(this.#key, Math.ceil(ms)));
  }
}

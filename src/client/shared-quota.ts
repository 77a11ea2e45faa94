/**
 * A key's quota shared through a {@link RateLimitStore} (e.g. Redis): every process draws its
 * pacing from one atomic bucket and sees one gate, so a 429 seen by one worker pauses all.
 *
 * If the store fails or is slow, the key falls back to local pacing at `rate / expectedWorkers`
 * (so N workers together still stay near the quota) and tries the store again after a second.
 * No call waits on a store that is down for longer than the store's own timeout.
 */
import type { Clock } from '../core/clock.js';
import type { BucketConfig, BucketState } from '../core/token-bucket.js';
import { reserve } from '../core/token-bucket.js';
import type { RateLimitStore, StoreLimit } from '../stores/store.js';

/** After a store failure, calls use the local fallback this long before the store is tried again. */
const RETRY_STORE_AFTER_MS = 1000;
/** A store call that has not answered by then counts as failed (a store's own timeout should be shorter). */
const STORE_DEADLINE_MS = 1000;
/** Share of the burst (at least 2 units) the shared bucket leaves unused: processes on a busy machine jitter more. */
const SHARED_CUSHION = 0.25;

/** Shared pacing and gate of one key. */
export class SharedQuota {
  readonly #store: RateLimitStore;
  readonly #key: string;
  readonly #limit: StoreLimit;
  readonly #clock: Clock;
  readonly #fallbackConfig: BucketConfig;
  #fallback: BucketState;
  #downUntil = Number.NEGATIVE_INFINITY;
  #failures = 0;

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
    // "rate/s with a burst of B" is B units per B/rate seconds (see StoreLimit). As in local pacing,
    // a cushion stays unused so that requests reaching the server closer together than they were
    // booked (network and scheduling jitter across processes) never find its bucket empty.
    const capacity = Math.max(1, burst - Math.max(2, Math.floor(burst * SHARED_CUSHION)));
    this.#limit = { algorithm: 'token-bucket', limit: capacity, windowMs: (capacity / rate) * 1000 };
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
    const timer = new AbortController();
    const timedOut = this.#clock.sleep(STORE_DEADLINE_MS, timer.signal).then(() => {
      throw new Error(`store did not answer within ${STORE_DEADLINE_MS} ms`);
    });
    try {
      return await Promise.race([operation(), timedOut]);
    } catch {
      this.#failures++;
      this.#downUntil = this.#clock.now() + RETRY_STORE_AFTER_MS;
      return undefined;
    } finally {
      timer.abort();
      timedOut.catch(() => {});
    }
  }

  /** ms the shared gate stays closed (0 when open, or when the store cannot say). */
  async gateWait(): Promise<number> {
    return (await this.#call(() => this.#store.gateWait(this.#key))) ?? 0;
  }

  /** Books `cost` units and returns the ms to wait before sending (from the store, else the fallback). */
  async reserve(cost: number): Promise<number> {
    const shared = await this.#call(() => this.#store.reserve(this.#key, this.#limit, cost));
    if (shared) return shared.waitMs;
    const booked = reserve(
      this.#fallback,
      this.#fallbackConfig,
      this.#clock.now(),
      Math.min(cost, this.#fallbackConfig.capacity),
    );
    this.#fallback = booked.state;
    return booked.waitMs;
  }

  /** Closes the shared gate for `ms` (best effort: a store failure leaves the local gate alone in charge). */
  holdGate(ms: number): void {
    void this.#call(() => this.#store.holdGate(this.#key, Math.ceil(ms)));
  }
}

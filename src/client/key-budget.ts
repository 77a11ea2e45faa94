/**
 * One key's retry budget ({@link ../core/retry-budget.ts}) on the client's clock: every original
 * call earns credit, every retry spends one.
 */
import type { Clock } from '../core/clock.js';
import type { RetryBudgetOptions, RetryBudgetState } from '../core/retry-budget.js';
import {
  depositRequest,
  newRetryBudget,
  refundRetry,
  retriesLeft,
  withdrawRetry,
} from '../core/retry-budget.js';

/** The retry budget of one key. */
export class KeyBudget {
  readonly #options: RetryBudgetOptions;
  readonly #clock: Clock;
  readonly #state: RetryBudgetState;
  /** Retries sent. */
  #retries = 0;

  constructor(options: RetryBudgetOptions, clock: Clock) {
    this.#options = options;
    this.#clock = clock;
    this.#state = newRetryBudget(options, clock.now());
  }

  /** Records an original call at `now` (the clock's reading): earns retry credit. */
  deposit(now: number = this.#clock.now()): void {
    depositRequest(this.#state, this.#options, now);
  }

  /** Spends one retry; false when the budget is exhausted. */
  withdraw(): boolean {
    return withdrawRetry(this.#state, this.#options, this.#clock.now());
  }

  /** Gives back a retry {@link withdraw} allowed that was never sent (its call ended first). */
  refund(): void {
    refundRetry(this.#state, this.#options);
  }

  /** A retry {@link withdraw} allowed was sent. */
  retrySent(): void {
    this.#retries++;
  }

  /** Retries sent so far. */
  get retries(): number {
    return this.#retries;
  }

  /** Whole retries the budget allows now. */
  left(): number {
    return retriesLeft(this.#state, this.#options, this.#clock.now());
  }
}

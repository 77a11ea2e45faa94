/**
 * Everything one key owns: its {@link Pacer} (which alone says when the next unit may go), its
 * retry budget, its waiting line and its stats. The line is a p-queue of concurrency 1 ordered by
 * priority: the call at its head waits for the pacer, woken early by every change (an answer, a
 * cancelled ticket), while the others wait their turn.
 */
import PQueue from 'p-queue';
import type { Random } from '../core/backoff.js';
import type { Clock } from '../core/clock.js';
import type { RetryBudgetState } from '../core/retry-budget.js';
import { depositRequest, newRetryBudget, retriesLeft, withdrawRetry } from '../core/retry-budget.js';
import { AbortError, QueueFullError } from '../errors.js';
import type { RateLimitSignal } from '../signals/signal.js';
import { Changes } from './changes.js';
import { type Costs, REQUESTS } from './cost.js';
import type { KeyOptions } from './options.js';
import { type Delay, type HoldReason, Pacer, type Ticket } from './pacer.js';
import type { SharedQuota } from './shared-quota.js';
import type { KeyStats } from './stats.js';
import type { Verdict } from './verdict.js';

export type { HoldReason, KeyStats, Ticket };

/**
 * Decides whether a wait is acceptable (throws to give up: deadline, `maxRetryAfterMs`), and
 * reports it (events).
 */
export interface WaitCheck {
  checkWait(delay: Delay): void;
}

/** State and waiting line of one key. */
export class KeyLane {
  readonly key: string;
  readonly options: KeyOptions;
  readonly #clock: Clock;
  readonly #pacer: Pacer;
  readonly #line = new PQueue({ concurrency: 1 });
  readonly #shared: SharedQuota | undefined;
  #budget: RetryBudgetState;
  #waiting = 0;
  readonly #changes: Changes;
  readonly #stats = { sent: 0, waitedMs: 0, rateLimited: 0, retries: 0 };

  /**
   * With `shared`, the gate comes from the store, and so does pacing once the shared quota paces
   * (configured, or learned from this key's answers): the local pacer then only gates and counts.
   */
  constructor(key: string, options: KeyOptions, clock: Clock, random: Random, shared?: SharedQuota) {
    this.key = key;
    this.options = options;
    this.#clock = clock;
    this.#shared = shared;
    const maxInFlight = Math.min(options.maxConcurrent, shared?.inFlightShare ?? Number.POSITIVE_INFINITY);
    this.#pacer = new Pacer(
      {
        rate: options.rate,
        burst: options.burst,
        maxInFlight,
        paced: !shared?.paces,
        spread: options.quota === 'spread',
        backoff: options.backoff,
      },
      random,
      clock.now(),
    );
    this.#budget = newRetryBudget(options.retryBudget, clock.now());
    this.#changes = new Changes(clock);
  }

  /** Records an original call: earns retry budget. */
  deposit(): void {
    this.#budget = depositRequest(this.#budget, this.options.retryBudget, this.#clock.now());
  }

  /** Spends one retry; false when the budget is exhausted. */
  withdraw(): boolean {
    const { allowed, state } = withdrawRetry(this.#budget, this.options.retryBudget, this.#clock.now());
    this.#budget = state;
    if (allowed) this.#stats.retries++;
    return allowed;
  }

  /** Adds to the waited total. */
  addWait(ms: number): void {
    this.#stats.waitedMs += ms;
  }

  /**
   * Waits until one attempt of `cost` may be sent, in priority order. `check` may throw to give
   * up; `signal` aborts the wait.
   */
  async acquire(
    cost: Costs | number,
    priority: number,
    first: boolean,
    signal: AbortSignal | undefined,
    check: WaitCheck,
  ): Promise<Ticket> {
    if (first && this.#waiting >= this.options.maxQueue)
      throw new QueueFullError(this.key, this.options.maxQueue);
    if (!this.#shared && this.#line.size === 0 && this.#line.pending === 0) {
      const now = this.#clock.now();
      const delay = this.#pacer.delay(cost, now);
      if (delay.ms <= 0) return this.#grant(cost, delay.probe, 0, now);
    }
    this.#waiting++;
    try {
      for (;;) {
        const ticket = await this.#line.add(() => this.#waitAtHead(cost, signal, check), {
          priority,
          signal,
        });
        if (ticket.dueInMs === 0 || (await this.#waitForBooking(ticket, signal, check))) return ticket;
      }
    } catch (error) {
      if (signal?.aborted && !(error instanceof AbortError)) throw new AbortError(signal.reason);
      throw error;
    } finally {
      this.#waiting--;
    }
  }

  /** Books the attempt at `now` (the reading its delay was asked at, when it is this one's). */
  #grant(cost: Costs | number, probe: boolean, dueInMs: number, now = this.#clock.now()): Ticket {
    this.#stats.sent++;
    return this.#pacer.grant(cost, probe, dueInMs, now);
  }

  async #waitAtHead(
    cost: Costs | number,
    signal: AbortSignal | undefined,
    check: WaitCheck,
  ): Promise<Ticket> {
    for (;;) {
      if (signal?.aborted) throw new AbortError(signal.reason);
      const now = this.#clock.now();
      const delay = this.#pacer.delay(cost, now);
      if (delay.ms <= 0) {
        if (!this.#shared) return this.#grant(cost, delay.probe, 0, now);
        const { gateMs, waitMs } = await this.#shared.book(
          typeof cost === 'number' ? cost : (cost[REQUESTS] ?? 1),
        );
        // Only the booking holds the line: the wait for the units happens outside it.
        if (gateMs <= 0) return this.#grant(cost, delay.probe, waitMs);
        this.#pacer.gate.hold(gateMs, 'retry-after', this.#clock.now());
        continue;
      }
      check.checkWait(delay);
      await this.#changes.sleep(delay.ms, signal);
      this.addWait(this.#clock.now() - now);
    }
  }

  /**
   * Waits for a booked ticket's units to be due. True to send; false when a gate closed meanwhile
   * (the booking is given up and the call queues again). Throws (after giving the ticket back) when
   * `check` gives up or `signal` aborts.
   */
  async #waitForBooking(ticket: Ticket, signal: AbortSignal | undefined, check: WaitCheck): Promise<boolean> {
    const started = this.#clock.now();
    try {
      check.checkWait({ ms: ticket.dueInMs, reason: 'pacing', probe: false, window: null });
      await this.#clock.sleep(ticket.dueInMs, signal);
    } catch (error) {
      this.#cancel(ticket);
      throw error;
    } finally {
      this.addWait(this.#clock.now() - started);
    }
    if (this.#pacer.gate.waitMs(this.#clock.now()) <= 0) return true;
    this.#cancel(ticket);
    return false;
  }

  /** Gives back a ticket that was never sent. */
  #cancel(ticket: Ticket): void {
    this.#stats.sent--;
    this.#pacer.cancel(ticket, this.#clock.now());
    this.#changes.notify();
  }

  /**
   * An attempt ended: the pacer learns from it, the shared gate closes on a hint, what was learned
   * is shared (a key with no configured rate), the line wakes.
   */
  settle(ticket: Ticket, verdict: Verdict, signal: RateLimitSignal | null): void {
    if (verdict.kind === 'limited') this.#stats.rateLimited++;
    const now = this.#clock.now();
    const gateMs = this.#pacer.settle(ticket, verdict, signal, now);
    const shared = this.#shared;
    if (shared) {
      if (gateMs !== null) shared.holdGate(gateMs);
      if (shared.learns && shared.learn(this.#pacer.snapshot(now), signal))
        this.#pacer.sharePacing(Math.min(this.options.maxConcurrent, shared.inFlightShare));
    }
    this.#changes.notify();
  }

  /** A call's answer settled what it cost (its usage). */
  settleCost(ticket: Ticket, costs: Costs): void {
    this.#pacer.settleCost(ticket, costs);
  }

  stats(): KeyStats {
    const now = this.#clock.now();
    return {
      key: this.key,
      ...this.#stats,
      budgetLeft: retriesLeft(this.#budget, this.options.retryBudget, now),
      learned: this.#pacer.snapshot(now),
      gate: this.#pacer.gateSnapshot(now),
      inFlight: this.#pacer.inFlight,
      inFlightCap: this.#pacer.inFlightCap,
      queued: this.#waiting,
      shared: this.#shared ? { degraded: this.#shared.degraded, failures: this.#shared.failures } : null,
    };
  }
}

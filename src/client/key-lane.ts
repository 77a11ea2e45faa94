/**
 * Everything one key owns: its pacer, its gate, its outage state, its retry budget, its waiting
 * line (a p-queue of concurrency 1, so calls leave in priority order, one at a time) and its stats.
 */
import PQueue from 'p-queue';
import type { Random } from '../core/backoff.js';
import { exponentialCeiling } from '../core/backoff.js';
import type { Clock } from '../core/clock.js';
import type { RetryBudgetState } from '../core/retry-budget.js';
import { depositRequest, newRetryBudget, retriesLeft, withdrawRetry } from '../core/retry-budget.js';
import { AbortError, QueueFullError } from '../errors.js';
import type { RateLimitSignal } from '../signals/signal.js';
import type { KeyOptions } from './options.js';
import type { PacerSnapshot } from './pacer.js';
import { Pacer } from './pacer.js';
import { isOutageSignal } from './retry-policy.js';
import type { SharedQuota } from './shared-quota.js';

/** Why a call is held. */
export type HoldReason = 'pacing' | 'gate' | 'outage';

/** A snapshot of one key, from `stats()`. */
export interface KeyStats {
  key: string;
  /** Attempts sent. */
  sent: number;
  /** Total ms calls spent waiting (pacing, gates, backoff). */
  waitedMs: number;
  /** 429 responses seen. */
  rateLimited: number;
  /** Retries sent. */
  retries: number;
  /** Whole retries the budget allows now. */
  budgetLeft: number;
  /** What the pacer knows or learned. */
  learned: PacerSnapshot;
  gate: { open: boolean; openInMs: number; reason: 'retry-after' | 'outage' | null };
  /** Attempts sent and not answered yet (with a `store`, also those booked and waiting for their units). */
  inFlight: number;
  /** Calls waiting for their turn. */
  queued: number;
  /** With a `store`: whether its shared quota is in use or the local fallback is (`degraded`), and store failures. */
  shared: { degraded: boolean; failures: number } | null;
}

/** Returned by a head that stepped aside for a call of higher priority. */
const STEP_ASIDE = Symbol('step aside');

/** What {@link KeyLane.acquire} hands back: permission to send one attempt. */
export interface Ticket {
  mark: number;
  cost: number;
  /** This attempt is the one probe of an outage. */
  probe: boolean;
  /** ms until units booked in a shared bucket are due (0 without a store). */
  dueInMs: number;
}

/** Hooks the lane reports waits through. */
export interface LaneHooks {
  onHold(reason: HoldReason, waitMs: number): void;
}

/** The reason a sleep cut short by a change is cancelled with: made once, not per wait. */
const WOKEN = Object.freeze(new Error('woken'));

/** Calls allowed in flight before the first response tells anything about the server. */
const INITIAL_WINDOW = 4;
/** Share of a gate's length added as random spread, so a reset instant is not a stampede. */
const GATE_SPREAD = 0.1;
const MAX_GATE_SPREAD_MS = 1000;

/** State and waiting line of one key. */
export class KeyLane {
  readonly key: string;
  readonly options: KeyOptions;
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #pacer: Pacer;
  readonly #line = new PQueue({ concurrency: 1 });
  #budget: RetryBudgetState;
  #gateUntil = 0;
  #gateReason: 'retry-after' | 'outage' | null = null;
  #outageFailures = 0;
  #probing = false;
  #inFlight = 0;
  #window = INITIAL_WINDOW;
  #waiting = 0;
  /** How many waiting calls have each priority, so a waiting head can step aside for a higher one. */
  #priorities = new Map<number, number>();
  #wake: () => void = () => {};
  #changed: Promise<void>;
  readonly #stats = { sent: 0, waitedMs: 0, rateLimited: 0, retries: 0 };
  readonly #shared: SharedQuota | undefined;

  /** With `shared`, pacing and the gate come from the store; the local pacer only watches. */
  constructor(key: string, options: KeyOptions, clock: Clock, random: Random, shared?: SharedQuota) {
    this.key = key;
    this.options = options;
    this.#clock = clock;
    this.#random = random;
    this.#shared = shared;
    this.#pacer = new Pacer(options.rate, options.burst, clock.now());
    this.#budget = newRetryBudget(options.retryBudget, clock.now());
    this.#changed = this.#newChange();
  }

  #newChange(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
  }

  #notify(): void {
    const wake = this.#wake;
    this.#changed = this.#newChange();
    wake();
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

  /** ms until the gate opens (0 when open). */
  gateWait(): number {
    return Math.max(0, this.#gateUntil - this.#clock.now());
  }

  /** Closes the gate for at least `ms`, plus a small random spread. A gate only extends. */
  holdGate(ms: number, reason: 'retry-after' | 'outage'): void {
    const spread = Math.min(MAX_GATE_SPREAD_MS, ms * GATE_SPREAD) * this.#random();
    const until = this.#clock.now() + ms + spread;
    if (until > this.#gateUntil) {
      this.#gateUntil = until;
      this.#gateReason = reason;
    }
  }

  #delay(cost: number, now: number): { ms: number; reason: HoldReason; probe: boolean } {
    if (this.#gateUntil > now) {
      return {
        ms: this.#gateUntil - now,
        reason: this.#gateReason === 'outage' ? 'outage' : 'gate',
        probe: false,
      };
    }
    if (this.#outageFailures > 0) {
      if (this.#probing) return { ms: Number.POSITIVE_INFINITY, reason: 'outage', probe: false };
      return { ms: 0, reason: 'outage', probe: true };
    }
    if (this.#inFlight >= this.options.maxConcurrent) {
      return { ms: Number.POSITIVE_INFINITY, reason: 'pacing', probe: false };
    }
    if (this.#shared) {
      const share = this.#shared.inFlightShare;
      return { ms: this.#inFlight >= share ? Number.POSITIVE_INFINITY : 0, reason: 'pacing', probe: false };
    }
    const learned = this.#pacer.snapshot(now);
    if (learned.tokens === null && this.#inFlight >= this.#window) {
      return { ms: Number.POSITIVE_INFINITY, reason: 'pacing', probe: false };
    }
    return { ms: this.#pacer.delayFor(cost, now), reason: 'pacing', probe: false };
  }

  #grant(cost: number, probe: boolean, dueInMs: number): Ticket {
    if (probe) this.#probing = true;
    const mark = this.#pacer.consume(cost, this.#clock.now());
    this.#inFlight++;
    this.#stats.sent++;
    return { mark, cost, probe, dueInMs };
  }

  /**
   * Waits until one attempt of `cost` may be sent: behind the gate, the outage probe, the
   * concurrency limit and the pacer, in priority order. `check(waitMs, reason)` may throw to give
   * up (deadline, `maxRetryAfterMs`); `signal` aborts the wait.
   */
  async acquire(
    cost: number,
    priority: number,
    first: boolean,
    signal: AbortSignal | undefined,
    check: (waitMs: number, reason: HoldReason) => void,
    hooks: LaneHooks,
  ): Promise<Ticket> {
    if (first && this.#waiting >= this.options.maxQueue)
      throw new QueueFullError(this.key, this.options.maxQueue);
    if (!this.#shared && this.#line.size === 0 && this.#line.pending === 0) {
      const now = this.#clock.now();
      const delay = this.#delay(cost, now);
      if (delay.ms <= 0) return this.#grant(cost, delay.probe, 0);
    }
    this.#waiting++;
    this.#priorities.set(priority, (this.#priorities.get(priority) ?? 0) + 1);
    if (priority !== 0) this.#notify();
    try {
      for (;;) {
        const ticket = await this.#line.add(() => this.#waitAtHead(cost, priority, signal, check, hooks), {
          priority,
          signal,
        });
        if (ticket === STEP_ASIDE) continue;
        if (ticket.dueInMs === 0 || (await this.#waitForBooking(ticket, signal, check, hooks))) return ticket;
      }
    } catch (error) {
      if (signal?.aborted && !(error instanceof AbortError)) throw new AbortError(signal.reason);
      throw error;
    } finally {
      this.#waiting--;
      const left = (this.#priorities.get(priority) ?? 1) - 1;
      if (left === 0) this.#priorities.delete(priority);
      else this.#priorities.set(priority, left);
    }
  }

  #higherWaiting(priority: number): boolean {
    for (const p of this.#priorities.keys()) if (p > priority) return true;
    return false;
  }

  async #waitAtHead(
    cost: number,
    priority: number,
    signal: AbortSignal | undefined,
    check: (waitMs: number, reason: HoldReason) => void,
    hooks: LaneHooks,
  ): Promise<Ticket | typeof STEP_ASIDE> {
    for (;;) {
      if (signal?.aborted) throw new AbortError(signal.reason);
      const now = this.#clock.now();
      const delay = this.#delay(cost, now);
      if (this.#higherWaiting(priority)) return STEP_ASIDE;
      if (delay.ms <= 0) {
        if (!this.#shared) return this.#grant(cost, delay.probe, 0);
        const dueInMs = await this.#bookShared(this.#shared, cost);
        if (dueInMs !== null) return this.#grant(cost, delay.probe, dueInMs);
        continue;
      }
      check(delay.ms, delay.reason);
      hooks.onHold(delay.reason, delay.ms);
      await this.#sleepOrChange(delay.ms, signal);
      this.addWait(this.#clock.now() - now);
    }
  }

  /**
   * Books `cost` units in the shared bucket unless the shared gate is closed. Returns the ms until
   * the booked units are due, or null when the shared gate was closed (the local gate now holds
   * too). Only the booking holds the line: the wait for the units happens outside it, so a process
   * can have several bookings (up to its in-flight share) waiting at once.
   */
  async #bookShared(shared: SharedQuota, cost: number): Promise<number | null> {
    const { gateMs, waitMs } = await shared.book(cost);
    if (gateMs > 0) {
      this.holdGate(gateMs, 'retry-after');
      return null;
    }
    return waitMs;
  }

  /**
   * Waits for a booked ticket's units to be due. True to send; false when a gate closed meanwhile
   * (the booking is given up and the call queues again). Throws (after giving the ticket back) when
   * `check` gives up or `signal` aborts.
   */
  async #waitForBooking(
    ticket: Ticket,
    signal: AbortSignal | undefined,
    check: (waitMs: number, reason: HoldReason) => void,
    hooks: LaneHooks,
  ): Promise<boolean> {
    const started = this.#clock.now();
    try {
      check(ticket.dueInMs, 'pacing');
      hooks.onHold('pacing', ticket.dueInMs);
      await this.#clock.sleep(ticket.dueInMs, signal);
    } catch (error) {
      this.#cancel(ticket);
      throw error;
    } finally {
      this.addWait(this.#clock.now() - started);
    }
    if (this.#gateUntil <= this.#clock.now()) return true;
    this.#cancel(ticket);
    return false;
  }

  /** Gives back a ticket that was never sent. */
  #cancel(ticket: Ticket): void {
    if (ticket.probe) this.#probing = false;
    this.#inFlight--;
    this.#stats.sent--;
    this.#pacer.release(ticket.cost, this.#clock.now());
    this.#notify();
  }

  async #sleepOrChange(ms: number, signal: AbortSignal | undefined): Promise<void> {
    const changed = this.#changed;
    if (!Number.isFinite(ms)) {
      await abortable(changed, signal);
      return;
    }
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.race([this.#clock.sleep(ms, stop.signal), changed]);
    } catch (error) {
      if (!(error instanceof AbortError) || signal?.aborted) throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      stop.abort(WOKEN);
    }
    if (signal?.aborted) throw new AbortError(signal.reason);
  }

  /** An attempt ended: learn from it, open or close gates, wake the line. `signal` is null on a network error. */
  settle(ticket: Ticket, status: number, signal: RateLimitSignal | null): void {
    const now = this.#clock.now();
    this.#inFlight--;
    this.#pacer.release(ticket.cost, now);
    if (ticket.probe) this.#probing = false;
    if (signal) this.#pacer.observe(ticket.mark, signal, status, now);
    const hint = signal?.retryAfterMs ?? null;
    if (status === 429) {
      this.#stats.rateLimited++;
      this.#window = Math.max(1, Math.floor(this.#window / 2));
      if (signal && signal.remaining === null) this.#pacer.cut(ticket.mark, signal.retryAfterMs, now);
    }
    if (hint !== null && (status === 429 || status === 503 || status === 403)) {
      this.holdGate(hint, 'retry-after');
      this.#shared?.holdGate(hint);
    } else if (isOutageSignal(status)) {
      this.#outageFailures++;
      const ceiling = exponentialCeiling(this.#outageFailures - 1, this.options.backoff);
      this.holdGate(ceiling / 2 + (this.#random() * ceiling) / 2, 'outage');
    } else if (status > 0 && status < 500 && status !== 429) {
      this.#outageFailures = 0;
      if (this.#gateReason === 'outage') this.#gateUntil = Math.min(this.#gateUntil, now);
      this.#window++;
      if (signal && signal.remaining === null) this.#pacer.recover(now);
    }
    this.#notify();
  }

  stats(): KeyStats {
    const now = this.#clock.now();
    return {
      key: this.key,
      ...this.#stats,
      budgetLeft: retriesLeft(this.#budget, this.options.retryBudget, now),
      learned: this.#pacer.snapshot(now),
      gate: {
        open: this.#gateUntil <= now && this.#outageFailures === 0,
        openInMs: Math.max(0, this.#gateUntil - now),
        reason: this.#gateUntil > now || this.#outageFailures > 0 ? this.#gateReason : null,
      },
      inFlight: this.#inFlight,
      queued: this.#waiting,
      shared: this.#shared ? { degraded: this.#shared.degraded, failures: this.#shared.failures } : null,
    };
  }
}

/** Awaits `promise` unless `signal` aborts first. */
function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new AbortError(signal.reason));
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(new AbortError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, reject);
  });
}

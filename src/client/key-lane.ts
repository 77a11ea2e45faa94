/**
 * Everything one key owns: its {@link Pacer} (which alone says when the next unit may go and
 * counts what was sent), its retry budget ({@link KeyBudget}), its waiting line
 * ({@link WaitingLine}) and its stats. A call that may go now goes at once; the others wait their
 * turn ({@link waitTurn}).
 */
import type { Random } from '../core/backoff.js';
import type { Clock } from '../core/clock.js';
import { QueueFullError } from '../errors.js';
import type { RateLimitSignal } from '../signals/signal.js';
import type { Costs } from './cost.js';
import { KeyBudget } from './key-budget.js';
import type { KeyOptions } from './options.js';
import { type HoldReason, Pacer, type Ticket } from './pacer.js';
import type { SharedQuota } from './shared-quota.js';
import type { KeyStats } from './stats.js';
import { type TurnContext, waitTurn } from './turn.js';
import type { Verdict } from './verdict.js';
import { type Waiter, WaitingLine } from './waiting-line.js';

export type { HoldReason, KeyStats, Ticket, Waiter };

/** State and waiting line of one key. */
export class KeyLane {
  readonly key: string;
  readonly options: KeyOptions;
  readonly budget: KeyBudget;
  /** The engine's count of keys seen when this lane last moved to the back of its map. */
  placedAt = 0;
  readonly #clock: Clock;
  readonly #pacer: Pacer;
  readonly #line: WaitingLine;
  readonly #shared: SharedQuota | undefined;
  readonly #turn: TurnContext;
  #waitedMs = 0;
  #rateLimited = 0;
  /** Calls of this key not ended yet (waiting, in flight or in a retry's backoff). */
  #calls = 0;

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
    const { rate, burst, backoff, maxConcurrent } = options;
    const spread = options.quota === 'spread';
    const paced = !shared?.paces;
    this.#pacer = new Pacer(
      { rate, burst, maxInFlight, maxConcurrent, paced, spread, backoff },
      random,
      clock.now(),
    );
    this.budget = new KeyBudget(options.retryBudget, clock);
    this.#line = new WaitingLine(clock);
    const addWait = (ms: number) => this.addWait(ms);
    const cancel = (ticket: Ticket) => this.cancel(ticket);
    this.#turn = { pacer: this.#pacer, line: this.#line, shared, clock, addWait, cancel };
  }

  /** A call of this key began; {@link callEnded} when it ends, however it ends. */
  callStarted(): void {
    this.#calls++;
  }

  callEnded(): void {
    this.#calls--;
  }

  /** Adds to the waited total. */
  addWait(ms: number): void {
    this.#waitedMs += ms;
  }

  /**
   * A ticket for one attempt of `cost`: at once when nobody waits and the pacer lets it go now,
   * else once it has waited its turn, in priority order. `waiter` may throw to give up. A call's
   * `first` attempt is an original call: it earns the key's retry budget its credit, even when
   * the line is full.
   */
  acquire(cost: Costs | number, priority: number, first: boolean, waiter: Waiter): Ticket | Promise<Ticket> {
    // One reading of the clock for the credit and the pacer: they happen at the same moment.
    const now = this.#clock.now();
    if (first) {
      this.budget.deposit(now);
      if (this.#line.waiting >= this.options.maxQueue)
        throw new QueueFullError(this.key, this.options.maxQueue);
    }
    if (!this.#shared && this.#line.empty) {
      const delay = this.#pacer.delay(cost, now);
      if (delay.ms <= 0) return this.#pacer.grant(cost, delay.probe, 0, now);
    }
    return waitTurn(this.#turn, cost, priority, waiter);
  }

  /**
   * An attempt ended: the pacer learns from it, the shared gate closes on a hint, what was learned
   * is shared (a key with no configured rate), the line wakes.
   */
  settle(ticket: Ticket, verdict: Verdict, signal: RateLimitSignal | null): void {
    if (verdict.kind === 'limited') this.#rateLimited++;
    const now = this.#clock.now();
    const gateMs = this.#pacer.settle(ticket, verdict, signal, now);
    const shared = this.#shared;
    if (shared) {
      if (gateMs !== null) shared.holdGate(gateMs);
      if (shared.learns && shared.learn(this.#pacer.snapshot(now), signal))
        this.#pacer.sharePacing(shared.paces, Math.min(this.options.maxConcurrent, shared.inFlightShare));
    }
    this.#line.notify();
  }

  /**
   * Gives back the ticket of an attempt that was never sent (its transport refused it, or it gave
   * up waiting for its turn), and what it booked in the shared quota.
   */
  cancel(ticket: Ticket): void {
    this.#pacer.cancel(ticket, this.#clock.now());
    if (ticket.shared) this.#shared?.giveBack(ticket.shared);
    this.#line.notify();
  }

  /**
   * ms until the pacer lets a call of `cost` go: its gate, then what holds the call once the gate
   * opens (a refused probe's longer hold, pacing); a wait for answers, of no known length, adds 0.
   */
  waitMs(cost: Costs | number): number {
    const now = this.#clock.now();
    const gated = this.#pacer.gateDelay(now)?.ms ?? 0;
    const { ms } = this.#pacer.delay(cost, now + gated);
    return gated + (Number.isFinite(ms) ? ms : 0);
  }

  /** True when the key has a `maxConcurrent`, which an open event stream holds a place of. */
  get boundsStreams(): boolean {
    return this.#pacer.boundsStreams;
  }

  /**
   * A call returns an answer whose body streams on (an event stream) on a key that
   * {@link boundsStreams}: the answer holds its place until the function returned is called
   * (when the body ends, fails or is cancelled; only the first call counts).
   */
  openStream(): () => void {
    const pacer = this.#pacer;
    pacer.streamOpened();
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      pacer.streamClosed();
      this.#line.notify();
    };
  }

  /** A call's answer settled what it cost (its usage). */
  settleCost(ticket: Ticket, costs: Costs): void {
    this.#pacer.settleCost(ticket, costs);
  }

  /**
   * True when no call of the key is under way and its pacer is at rest (a fresh one would pace the
   * same: a spent window or an emptied bucket still holds the next call): the key may be forgotten.
   * Never a fleet key that learned the figures it books at: a fresh one would send its first calls
   * unbooked, ahead of the others' bookings.
   */
  get idle(): boolean {
    const shared = this.#shared;
    if (shared?.learns && shared.paces) return false;
    return this.#calls === 0 && this.#pacer.atRest(this.#clock.now());
  }

  stats(): KeyStats {
    const now = this.#clock.now();
    const pacer = this.#pacer;
    return {
      key: this.key,
      sent: pacer.sent,
      waitedMs: this.#waitedMs,
      rateLimited: this.#rateLimited,
      retries: this.budget.retries,
      budgetLeft: this.budget.left(),
      learned: pacer.snapshot(now),
      gate: pacer.gateSnapshot(now),
      inFlight: pacer.inFlight,
      inFlightCap: pacer.inFlightCap,
      queued: this.#line.waiting,
      shared: this.#shared ? { degraded: this.#shared.degraded, failures: this.#shared.failures } : null,
    };
  }
}

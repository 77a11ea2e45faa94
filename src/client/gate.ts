/**
 * A key's gate: closed while the server asked the key to wait (a retry hint) or looks down (an
 * outage backoff). A gate only extends — a shorter hint never shortens a longer pause — and
 * closes for a little longer than asked, by a random spread, so that a reset instant does not
 * release every waiting call at once.
 */
import type { Random } from '../core/backoff.js';

/** Why a gate is closed. */
export type GateReason = 'retry-after' | 'outage';

/**
 * Share of a gate's length added as random spread: enough to part processes that were refused at
 * the same instant, small enough not to idle a key (10 ms on a 1 s `Retry-After`; 10 % cost a
 * Retry-After-only key 5 % of its throughput per refusal).
 */
const GATE_SPREAD = 0.01;
const MAX_GATE_SPREAD_MS = 1000;

/** One key's gate. Times are monotonic ms. */
export class Gate {
  /** When the gate opens: the latest end of every hold, spread included. */
  #until = 0;
  #reason: GateReason | null = null;
  /** The latest end of a retry hint's hold, spread included: an outage that ends leaves it standing. */
  #hintUntil = 0;
  /** The latest end of a retry hint as the server asked it, without the spread. */
  #askedUntil = 0;
  /** Closed time of the spells that ended before `#since`, and the start of the latest spell. */
  #closedBefore = 0;
  #since = 0;
  readonly #random: Random;

  constructor(random: Random) {
    this.#random = random;
  }

  /** ms until the gate opens at `now` (0 when open). */
  waitMs(now: number): number {
    return Math.max(0, this.#until - now);
  }

  /** When the gate opens (or last opened): the end of its latest hold. */
  get opensAt(): number {
    return this.#until;
  }

  /** Why the gate is (or was last) closed. */
  get reason(): GateReason | null {
    return this.#reason;
  }

  /** Closes the gate for at least `ms` from `now`, plus the spread; never shortens it. */
  hold(ms: number, reason: GateReason, now: number): void {
    const spread = Math.min(MAX_GATE_SPREAD_MS, ms * GATE_SPREAD) * this.#random();
    const until = now + ms + spread;
    if (reason === 'retry-after') {
      this.#hintUntil = Math.max(this.#hintUntil, until);
      this.#askedUntil = Math.max(this.#askedUntil, now + ms);
    }
    if (until > this.#until) {
      if (now >= this.#until) {
        this.#closedBefore += this.#until - this.#since;
        this.#since = now;
      }
      this.#until = until;
      this.#reason = reason;
    }
  }

  /** Total ms the gate has been closed up to `now` (for metrics). */
  closedMs(now: number): number {
    return this.#closedBefore + Math.max(0, Math.min(now, this.#until) - this.#since);
  }

  /**
   * ms of the wait at `now` that retry hints asked for, without the spread (0 when none holds):
   * what a limit on the server's hints (`maxRetryAfterMs`) is compared with.
   */
  askedMs(now: number): number {
    return Math.max(0, Math.min(this.#askedUntil, this.#until) - now);
  }

  /** The server answered again: an outage backoff ends now; a retry hint still holds to its end. */
  endOutage(now: number): void {
    if (this.#reason !== 'outage') return;
    this.#until = Math.max(Math.min(this.#until, now), this.#hintUntil);
    if (this.#hintUntil > now) this.#reason = 'retry-after';
  }
}

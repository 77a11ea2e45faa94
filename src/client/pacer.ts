/**
 * The local pacer of one key: a token bucket that is either configured (`rate`, `burst`) or
 * learned from the server, and kept in step with what the server reports.
 *
 * Learning, in order of trust:
 * 1. `configured`: the user's `rate`/`burst` (a server policy can only lower it).
 * 2. `policy`: an IETF `RateLimit-Policy` states the sustained rate `q / w`.
 * 3. `estimate`: how `remaining` moves against what was sent. Between two responses A and B the
 *    server refilled `rB − rA + sent(A..B]` units, so rate = that / (tB − tA). This reads a token
 *    bucket that reports `limit` = burst and `reset` = "seconds until full" right, where reading
 *    `limit / reset` would pace 10× too slow.
 * 4. `reset`: until an estimate exists, `(limit − remaining) / reset` — those units are back by
 *    the reset whatever the algorithm, so it is a floor that never overshoots.
 * 5. `aimd`: no counters at all: slow start from the first 429; a later 429 cuts the rate to
 *    what the server was seen to admit from refill (at least half, at most 95 % of the refused
 *    rate), and clean time after the gate adds it back slowly. See {@link Pacer.cut}.
 *
 * Every response with `remaining` (newer than the last one used) re-syncs the bucket to
 * `remaining − units still in flight`: requests in flight may or may not have been counted by the
 * server, and assuming they were not is the safe side.
 *
 * A cushion of tokens is always kept unused — one when configured, two while learning — so the
 * server's bucket never runs dry: requests that cross the network with different delays arrive
 * closer together than they were sent, and a server bucket at zero would refuse the early one.
 */
import type { RateLimitSignal } from '../signals/signal.js';

/** Where the pacer's rate came from. */
export type RateSource = 'configured' | 'policy' | 'estimate' | 'reset' | 'aimd';

/** What the pacer knows, for `stats()`. */
export interface PacerSnapshot {
  /** Units per second, or `null` while unknown (unpaced). */
  rate: number | null;
  /** Bucket capacity, or `null` while unknown. */
  burst: number | null;
  source: RateSource | null;
  /** Tokens the pacer believes are available now, or `null` while unknown. */
  tokens: number | null;
}

const EPSILON = 1e-9;
/** Tokens kept unused while the rate is learned, and when it is configured (the cushion). */
const LEARNING_CUSHION = 2;
const CONFIGURED_CUSHION = 1;
/** Shortest span between two readings of `remaining` that may yield a rate estimate. */
const MIN_ESTIMATE_SPAN_MS = 50;
/** With no rate known, nothing in flight and too few tokens: wait this long before sending one more. */
const PROBE_INTERVAL_MS = 25;
/** Slow start (servers without counters) grows the rate this often. */
const SLOW_START_STEP_MS = 250;
/** Sends remembered (time, mark) for the admitted-rate bound of a refusal without counters. */
const MAX_SEND_LOG = 4096;
/** After a later cut, clean time adds back at least this fraction of the rate per second. */
const GENTLE_RECOVERY = 1 / 32;

interface Reading {
  at: number;
  remaining: number;
  /** Cumulative cost sent up to and including the request this reading answered. */
  sent: number;
}

/** One key's pacing state. Times are monotonic ms. */
export class Pacer {
  #rate: number | null;
  #burst: number | null;
  #source: RateSource | null;
  readonly #configuredRate: number | null;
  #tokens: number | null;
  #updatedAt: number;
  #holdUntil = 0;
  /** Cumulative cost sent. */
  #sent = 0;
  /** Cost sent and not yet answered. */
  #inFlight = 0;
  /** `sent` mark of the newest response used to sync. */
  #syncedMark = -1;
  #anchor: Reading | null = null;
  #lastIncrease = 0;
  #recoveryPerSecond = 1;
  #slowStart = false;
  #episodeSuccesses = 0;
  #maxRemainingSeen = -1;
  #probeAt: number | null = null;
  #cutMark = 0;
  /** Successes before the first refusal without counters: at least the server's burst. */
  #burstBound: number | null = null;
  /** Sends since the last cut without counters: `at` and the mark before the send. */
  #sendLog: { at: number; start: number }[] = [];

  constructor(rate: number | undefined, burst: number | undefined, now: number) {
    this.#configuredRate = rate ?? null;
    this.#rate = rate ?? null;
    this.#burst = rate === undefined ? null : (burst ?? Math.max(1, rate));
    this.#source = rate === undefined ? null : 'configured';
    this.#tokens = this.#burst;
    this.#updatedAt = now;
  }

  /** Cumulative cost sent so far (a mark to hand back to {@link Pacer.observe}). */
  get sentMark(): number {
    return this.#sent;
  }

  /**
   * Tokens available for new sends at `now`. Refill is clamped to `burst − in flight`: units in
   * flight may not have reached the server yet, and a full server bucket cannot bank the refill
   * it loses meanwhile. (The state is stored at every change of the in-flight count.)
   */
  #current(now: number): number | null {
    if (this.#tokens === null) return null;
    if (this.#rate === null || !(now > this.#updatedAt)) return this.#tokens;
    const refilled = this.#tokens + ((now - this.#updatedAt) * this.#rate) / 1000;
    if (this.#burst === null) return refilled;
    return Math.max(this.#tokens, Math.min(this.#burst - this.#inFlight, refilled));
  }

  #store(now: number): void {
    const tokens = this.#current(now);
    if (tokens !== null) this.#tokens = tokens;
    this.#updatedAt = Math.max(this.#updatedAt, now);
  }

  /**
   * ms to wait before `cost` may be sent: 0 to go now, `Infinity` to wait for the next response
   * (nothing else will tell when a unit is back).
   */
  delayFor(cost: number, now: number): number {
    if (this.#holdUntil > now) return this.#holdUntil - now;
    const tokens = this.#current(now);
    if (tokens === null) return 0;
    const cushion = this.#source === 'configured' ? CONFIGURED_CUSHION : LEARNING_CUSHION;
    const need = cost + Math.max(0, Math.min(cushion, (this.#burst ?? cost) - cost));
    if (tokens >= need - EPSILON) return 0;
    // Only an answer can lift the in-flight clamp; refill alone cannot get there.
    const clamped = this.#burst !== null && this.#burst - this.#inFlight < need - EPSILON;
    if (this.#rate !== null && this.#rate > 0 && !clamped)
      return Math.ceil(((need - tokens) * 1000) / this.#rate);
    if (this.#inFlight > 0) return Number.POSITIVE_INFINITY;
    // Nothing will answer and no rate is known: after a short pause, send one more to learn from
    // (instead of draining the server's bucket at once).
    this.#probeAt ??= now + PROBE_INTERVAL_MS;
    if (now < this.#probeAt) return this.#probeAt - now;
    this.#probeAt = null;
    return 0;
  }

  /** Books `cost` units at `now`; returns the mark of this send. */
  consume(cost: number, now: number): number {
    this.#store(now);
    if (this.#tokens !== null) this.#tokens -= cost;
    if (this.#source === 'aimd') {
      if (this.#sendLog.length >= MAX_SEND_LOG) this.#sendLog.splice(0, MAX_SEND_LOG / 2);
      this.#sendLog.push({ at: now, start: this.#sent });
    }
    this.#sent += cost;
    this.#inFlight += cost;
    return this.#sent;
  }

  /** The send of `cost` units got its answer (or failed). Call before {@link Pacer.observe}. */
  release(cost: number, now: number): void {
    this.#store(now);
    this.#inFlight = Math.max(0, this.#inFlight - cost);
  }

  /**
   * Learns from a response to the send marked `mark`. `ok` is false for a refusal (429), which
   * also ends the current estimate's clean span.
   */
  observe(mark: number, signal: RateLimitSignal, status: number, now: number): void {
    this.#learnPolicy(signal);
    if (signal.remaining !== null) this.#sync(mark, signal, status, now);
    if (status === 429) this.#anchor = null;
  }

  #learnPolicy(signal: RateLimitSignal): void {
    if (signal.dialect !== 'ietf') return;
    const binding = signal.policies.find((p) => p.quota !== null && p.windowMs && p.unit === 'requests');
    if (!binding || binding.quota === null || !binding.windowMs) return;
    const policyRate = (binding.quota * 1000) / binding.windowMs;
    if (this.#configuredRate !== null) {
      if (policyRate < this.#configuredRate) this.#rate = policyRate;
      return;
    }
    this.#rate = policyRate;
    this.#source = 'policy';
  }

  #sync(mark: number, signal: RateLimitSignal, status: number, now: number): void {
    const remaining = signal.remaining as number;
    if (this.#source !== 'configured') {
      // A policy's quota can be far above the burst (a token bucket's q per w): the largest
      // `remaining` seen bounds the burst from below, the stated limit from above.
      this.#maxRemainingSeen = Math.max(this.#maxRemainingSeen, remaining);
      const seen = this.#maxRemainingSeen + 1;
      this.#burst = Math.max(1, signal.limit === null ? seen : Math.min(signal.limit, seen));
    }
    if (
      this.#source === null ||
      this.#source === 'reset' ||
      this.#source === 'estimate' ||
      this.#source === 'aimd'
    ) {
      this.#estimate({ at: now, remaining, sent: mark }, signal.limit);
    }
    if ((this.#source === null || this.#source === 'reset') && signal.limit !== null && signal.resetInMs) {
      const floor = ((signal.limit - remaining) * 1000) / signal.resetInMs;
      if (floor > 0 && floor > (this.#rate ?? 0)) {
        this.#rate = floor;
        this.#source = 'reset';
      }
    }
    if (mark <= this.#syncedMark) return;
    this.#syncedMark = mark;
    const current = this.#current(now);
    if (this.#source === 'configured' && current !== null) {
      // `remaining` is floored: the server holds up to one unit more. Only correct downwards.
      this.#tokens = Math.min(current, remaining + 1 - EPSILON - this.#inFlight);
    } else {
      this.#tokens = remaining - this.#inFlight;
    }
    this.#updatedAt = Math.max(this.#updatedAt, now);
    const measured = this.#source !== null && this.#source !== 'reset';
    if (remaining === 0 && status < 300 && !measured && signal.resetInMs !== null) {
      // Nothing left and no rate measured: the reset is the only statement of when units come back
      // (a window may return nothing before it; the `reset` floor is an average, not a promise).
      this.#holdUntil = Math.max(this.#holdUntil, now + signal.resetInMs);
    }
  }

  #estimate(reading: Reading, limit: number | null): void {
    const anchor = this.#anchor;
    const nearFull = limit !== null && reading.remaining >= limit - 1;
    if (!anchor || nearFull) {
      // A full bucket hides refill (it was clamped): start measuring from here.
      this.#anchor = nearFull ? null : reading;
      return;
    }
    const span = reading.at - anchor.at;
    // Answers can overtake each other; only a reading newer than the anchor measures forward.
    if (span < MIN_ESTIMATE_SPAN_MS || reading.sent <= anchor.sent) return;
    const refilled = reading.remaining - anchor.remaining + (reading.sent - anchor.sent);
    if (refilled <= 0) return;
    this.#rate = (refilled * 1000) / span;
    this.#source = 'estimate';
  }

  /**
   * A 429 from a server that sends no counters (`mark` is the refused send's). The first one
   * starts pacing at twice what got through, per `Retry-After` period (a floor the server has
   * shown it allows), growing 1.5× every quarter second once the gate opens; what got through
   * before it, `B`, bounds the server's burst from above.
   * A later refusal means the server's bucket was empty when the refused send arrived: of the
   * units sent since any earlier send t (since the gate opened), at most `B` came from the
   * bucket and the rest from refill, so rate ≥ (sent since t − B) / (now − t). The rate goes to
   * the best such bound, but never below half nor above 95 % of the refused rate. Clean time
   * after the gate then adds back a quarter of the gap to that refused rate per second (at
   * least 1/32 of the rate): the server's rate lies in that gap, and one more refusal gates the
   * key for a whole `Retry-After`, which costs far more than pacing a few percent slow.
   * One cut per episode (refusals of requests sent before the last cut belong to it), and only
   * small bursts: the server's burst is unknown.
   */
  cut(mark: number, hintMs: number | null, now: number): void {
    if (this.#source === 'configured' || this.#source === 'policy' || this.#source === 'estimate') return;
    if (mark <= this.#cutMark) return;
    this.#cutMark = this.#sent;
    const period = Math.max(1000, hintMs ?? 0) / 1000;
    const first = this.#rate === null;
    this.#slowStart = first;
    if (first) {
      this.#burstBound = Math.max(1, this.#episodeSuccesses);
      this.#rate = Math.max(0.1, (2 * this.#burstBound) / period);
      this.#recoveryPerSecond = this.#rate / 4;
    } else {
      const refusedAt = this.#rate as number;
      const bound = this.#admittedBound(mark);
      this.#rate = Math.max(0.1, Math.min(0.95 * refusedAt, Math.max(refusedAt / 2, bound)));
      this.#recoveryPerSecond = Math.max(this.#rate * GENTLE_RECOVERY, (0.95 * refusedAt - this.#rate) / 4);
    }
    this.#sendLog = [];
    this.#episodeSuccesses = 0;
    this.#burst = Math.max(2, Math.ceil(this.#rate / 20));
    this.#tokens = 0;
    this.#updatedAt = now;
    this.#source = 'aimd';
    // The key is gated for the hint: clean time starts when it opens (slow start grows then).
    this.#lastIncrease = now + (hintMs ?? 0) - (first ? SLOW_START_STEP_MS : 0);
  }

  /** Lower bound on the server's rate from the sends before the refused one (`mark`); 0 if none. */
  #admittedBound(mark: number): number {
    // The refused send is the last one logged that started below `mark`.
    const sends = this.#sendLog.filter((send) => send.start < mark);
    const end = sends.pop();
    if (end === undefined || this.#burstBound === null) return 0;
    let best = 0;
    for (const send of sends) {
      const span = (end.at - send.at) / 1000;
      if (span > 0) best = Math.max(best, (end.start - send.start - this.#burstBound) / span);
    }
    return best;
  }

  /** A success with no counters: slow start grows the rate 1.5× per 250 ms, later it adds back linearly. */
  recover(now: number): void {
    this.#episodeSuccesses++;
    if (this.#source !== 'aimd' || this.#rate === null) return;
    const elapsed = now - this.#lastIncrease;
    if (this.#slowStart) {
      if (elapsed < SLOW_START_STEP_MS) return;
      this.#rate *= 1.5;
    } else {
      if (elapsed <= 0) return;
      this.#rate += (this.#recoveryPerSecond * elapsed) / 1000;
    }
    this.#burst = Math.max(2, Math.ceil(this.#rate / 20));
    this.#lastIncrease = now;
  }

  snapshot(now: number): PacerSnapshot {
    const tokens = this.#current(now);
    return { rate: this.#rate, burst: this.#burst, source: this.#source, tokens };
  }
}

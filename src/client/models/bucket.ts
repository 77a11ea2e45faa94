/**
 * Bucket model: the server refills a bucket of `burst` units at `rate` per second, continuously
 * (a token bucket or GCRA). The figures are configured or learned, in order of trust:
 * 1. `configured`: the user's `rate`/`burst` (a stated policy can only lower the rate).
 * 2. `policy`: the server states the sustained rate (an IETF `RateLimit-Policy`'s `q / w`).
 * 3. `estimate`: how `remaining` moves against what was sent. Between two readings A and B the
 *    server refilled `rB − rA + sent(A..B]` units, so rate = that / (tB − tA). This reads a token
 *    bucket that reports `limit` = burst and `reset` = "seconds until full" right, where reading
 *    `limit / reset` would pace 10× too slow.
 * 4. `reset`: until an estimate exists, `(limit − remaining) / reset` — those units are back by
 *    the reset whatever the algorithm, so it is a floor that never overshoots. In a unit whose
 *    costs are estimates (tokens), it also caps the estimate: a cost stated high reads as refill.
 *
 * Every reading newer than the last one used re-syncs the bucket to `remaining − units still in
 * flight` (in flight may or may not have been counted: assuming not is the safe side). Refill is
 * clamped to `burst − in flight`: a full server bucket cannot bank refill for units on their way.
 * A cushion is kept unused — one unit when configured, two while learning — so requests that cross
 * the network closer together than they were sent never find the server's bucket at zero.
 *
 * Evidence against the model: a bucket refills all the time, so readings that show no refill for
 * longer than the learned rate allows say the server counts a window instead (in requests only:
 * costs in other units, such as tokens, are estimates), and so does a refusal despite the cushion. Missing refill is owed from one reading's answer to the later one's
 * send (the server counted both within that span), measured against the bucket's learned capacity
 * (`remaining` floored: one unit of room less), less the units other sends in flight at either
 * reading could hide by reaching the server in another order; the span starts at whichever dry
 * reading leaves the least uncertain, so a trickle after a burst is judged on its own readings.
 *
 * `sent` and `observe` update the state in place (the {@link ServerModel} contract).
 */
import { defaultBurst } from '../../core/limit.js';
import type { RateLimitPolicy } from '../../signals/signal.js';
import { EPSILON, hadRoomFor, type Observation, type RateSource, type ServerModel } from './model.js';

/** A reading of `remaining`, with the cumulative units sent up to the send it answered. */
interface Reading {
  at: number;
  /** When the answered send left: the server counted it no earlier. */
  sentAt: number;
  remaining: number;
  mark: number;
  /** Other units in flight when it arrived: sends that may reach the server in another order than this one. */
  inFlight: number;
}

/** State of the bucket model. */
export interface BucketModelState {
  rate: number | null;
  burst: number | null;
  source: Exclude<RateSource, 'window' | 'refusals'> | null;
  configuredRate: number | null;
  tokens: number | null;
  updatedAt: number;
  /** No send before this (remaining 0 and nothing measured: the reset is the only statement). */
  holdUntil: number;
  syncedMark: number;
  /** Start of the span the rate estimate measures over. */
  anchor: Reading | null;
  /**
   * When the bucket is full again if nothing more is sent, as of the last reading (its stated
   * reset, else the measured rate's time to refill); `Infinity` while neither is known. A key idle
   * past it found a full bucket: a span across it hides refill, and the estimate starts afresh.
   */
  fullBy: number;
  /** The most units the server was seen to hold: a reading's `remaining`, plus the answered send's own units. */
  maxHeldSeen: number;
  /** Last send or answer: with nothing known and nothing in flight, the next probe waits from here. */
  lastActivity: number;
  /** Last reading since which no refill was seen. */
  dryFrom: Reading | null;
  /** When a dry span, or a refusal despite the cushion, last contradicted the model. */
  falsifiedAt: number | null;
  /** ms the key leaves later than its tokens say: the hints of refusals that had room (tokens only). */
  lateMs: number;
}

/** Tokens kept unused while the rate is learned, and when it is configured (the cushion). */
export const LEARNING_CUSHION = 2;
const CONFIGURED_CUSHION = 1;
/** Shortest span between two readings of `remaining` that may yield a rate estimate. */
const MIN_ESTIMATE_SPAN_MS = 50;
/** With no rate known, nothing in flight and too few tokens: wait this long before sending one more. */
const PROBE_INTERVAL_MS = 25;
/** Missing refill (units) that falsifies the bucket: more than the flooring of `remaining` explains. */
const FALSIFIED_AT_UNITS = 2;

/** A bucket model, configured (`rate`, `burst`) or to be learned (`rate` undefined). */
export function newBucket(
  rate: number | undefined,
  burst: number | undefined,
  now: number,
): BucketModelState {
  const b = rate === undefined ? null : (burst ?? defaultBurst(rate));
  return {
    rate: rate ?? null,
    burst: b,
    source: rate === undefined ? null : 'configured',
    configuredRate: rate ?? null,
    tokens: b,
    updatedAt: now,
    holdUntil: 0,
    syncedMark: -1,
    anchor: null,
    fullBy: Number.POSITIVE_INFINITY,
    maxHeldSeen: 0,
    lastActivity: now,
    dryFrom: null,
    falsifiedAt: null,
    lateMs: 0,
  };
}

/** The part of a bucket state that pacing arithmetic needs (shared with the no-counters model). */
export interface Tokens {
  rate: number | null;
  burst: number | null;
  tokens: number | null;
  updatedAt: number;
}

/** Tokens at `now`: refilled at the rate, clamped to `burst − inFlight`, never below what was stored. */
export function tokensAt(s: Tokens, now: number, inFlight: number): number | null {
  if (s.tokens === null) return null;
  if (s.rate === null || !(now > s.updatedAt)) return s.tokens;
  const refilled = s.tokens + ((now - s.updatedAt) * s.rate) / 1000;
  if (s.burst === null) return refilled;
  return Math.max(s.tokens, Math.min(s.burst - inFlight, refilled));
}

/** Stores the tokens computed up to `now` (under the in-flight count until now) in the state. */
export function refill(s: Tokens, now: number, inFlight: number): void {
  s.tokens = tokensAt(s, now, inFlight);
  s.updatedAt = Math.max(s.updatedAt, now);
}

/**
 * ms until `cost` units plus a cushion are there: 0 = now, `Infinity` = only an answer can tell.
 * With no rate known and nothing in flight, one more send after a short pause (from `lastActivity`)
 * is the way to learn, instead of draining the server's bucket at once.
 */
export function tokenDelay(
  s: Tokens,
  cost: number,
  cushion: number,
  now: number,
  inFlight: number,
  lastActivity: number,
): number {
  const tokens = tokensAt(s, now, inFlight);
  if (tokens === null) return 0;
  const need = cost + Math.max(0, Math.min(cushion, (s.burst ?? cost) - cost));
  if (tokens >= need - EPSILON) return 0;
  // Only an answer can lift the in-flight clamp; refill alone cannot get there.
  const clamped = s.burst !== null && s.burst - inFlight < need - EPSILON;
  if (s.rate !== null && s.rate > 0 && !clamped) return Math.ceil(((need - tokens) * 1000) / s.rate);
  if (inFlight > 0) return Number.POSITIVE_INFINITY;
  return Math.max(0, lastActivity + PROBE_INTERVAL_MS - now);
}

function learnPolicy(s: BucketModelState, rate: number | null): void {
  if (rate === null) return;
  if (s.configuredRate !== null) {
    if (rate < s.configuredRate) s.rate = rate;
    return;
  }
  s.rate = rate;
  s.source = 'policy';
}

/**
 * The reading an observation makes of `remaining`, kept as its own object: the observation is
 * scratch that the pacer refills for the next answer, and most readings are never kept.
 */
function readingOf(o: Observation, remaining: number): Reading {
  return { at: o.at, sentAt: o.sentAt, remaining, mark: o.mark, inFlight: o.inFlight };
}

/** Follows dry spans: readings since `dryFrom` that show no refill although the rate says there was some. */
function trackDryness(s: BucketModelState, o: Observation, remaining: number): void {
  // The bucket's capacity as learned (a policy's quota may be a rate far above it, as an IETF `q` is).
  const limit = s.burst;
  const from = s.dryFrom;
  const full = limit !== null && remaining >= limit - 1;
  if (from === null || full) {
    s.dryFrom = full ? null : readingOf(o, remaining);
    return;
  }
  if (o.mark <= from.mark) return;
  const refilled = remaining - from.remaining + (o.mark - from.mark);
  if (refilled >= 1 || s.rate === null) {
    s.dryFrom = readingOf(o, remaining);
    return;
  }
  // A bucket cannot refill past its capacity: at most the room it had (`remaining` is floored: up
  // to one unit less), plus what was spent since, is owed. Sends in flight at either reading may
  // have reached the server in another order than they were sent: so many units of `refilled` are uncertain.
  const room = (limit ?? Number.POSITIVE_INFINITY) - from.remaining - 1 + (o.mark - from.mark);
  // The server counted `from` before its answer and this reading after its send: only that span is
  // sure to have passed between them (an answer can wait long in a busy client before it is read).
  const owed = Math.min(room, (s.rate * Math.max(0, o.sentAt - from.at)) / 1000);
  const missing = owed - refilled - from.inFlight - o.inFlight;
  if (missing >= FALSIFIED_AT_UNITS) {
    s.falsifiedAt = o.at;
    return;
  }
  // Still dry: later readings are measured from whichever of the two makes any later span miss
  // more (fewer units in flight outweigh the refill owed since `from`), so a trickle after a burst
  // is judged on its own readings, not on the burst's uncertain ones.
  const gain = refilled + from.inFlight - o.inFlight - (s.rate * (o.at - from.at)) / 1000;
  if (gain > 0) s.dryFrom = readingOf(o, remaining);
}

function estimate(s: BucketModelState, o: Observation, remaining: number, limit: number | null): void {
  // Calls in no mark of the unit (sent before its cost was known) spent units the marks do not
  // show: a span across them reads their units as refill never given. Measure afresh after them.
  if (o.unmarked > 0) {
    s.anchor = null;
    return;
  }
  const anchor = s.anchor;
  const nearFull = limit !== null && remaining >= limit - 1;
  // A full bucket hides refill (it was clamped): start measuring from here.
  if (!anchor || nearFull) {
    s.anchor = nearFull ? null : readingOf(o, remaining);
    return;
  }
  const span = o.at - anchor.at;
  // Answers can overtake each other; only a reading newer than the anchor measures forward.
  if (span < MIN_ESTIMATE_SPAN_MS || o.mark <= anchor.mark) return;
  const refilled = remaining - anchor.remaining + (o.mark - anchor.mark);
  if (refilled <= 0) return;
  s.rate = (refilled * 1000) / span;
  s.source = 'estimate';
}

/**
 * The rate a reading's reset states, `(limit − remaining) / reset`: those units are back by then
 * whatever the algorithm (a bucket's own rate when the reset is its time until full, a window's
 * average when it is the window's end). `null` when not stated, or nothing is spent.
 */
function resetRate(window: RateLimitPolicy, remaining: number): number | null {
  if (window.quota === null || !window.resetInMs) return null;
  const rate = ((window.quota - remaining) * 1000) / window.resetInMs;
  return rate > 0 ? rate : null;
}

/** ms until a bucket read with `remaining` left is full: the stated reset, else at the measured rate. */
function fullInMs(s: BucketModelState, window: RateLimitPolicy, remaining: number): number {
  if (window.resetInMs !== null) return window.resetInMs;
  if (s.rate === null || s.rate <= 0 || s.burst === null) return Number.POSITIVE_INFINITY;
  return (Math.max(0, s.burst - remaining) * 1000) / s.rate;
}

function sync(s: BucketModelState, o: Observation, window: RateLimitPolicy): void {
  const remaining = window.remaining as number;
  if (s.source !== 'configured') {
    // A policy's quota can be far above the burst (a token bucket's q per w): the most units seen
    // held bounds the burst from below, the stated limit from above; `remaining` is floored, so at
    // least one unit more. An answered send was counted from what the server held, so in tokens
    // its own units were there too (a call of 1,000 answered with 254 left: at least 1,254; a bound
    // below a call's cost says no refill can ever let it go, only a probe) — where the stated
    // limit caps that booking: a learned cost starts high, and under an IETF quota (a rate, above
    // the burst) it read a 10,000-token bucket as 29,262 and stalled the key.
    const ownUnits = o.outcome === 'answered' && window.unit !== 'requests' && !o.statedPolicy ? o.cost : 0;
    const held = remaining + Math.max(1, ownUnits);
    s.maxHeldSeen = Math.max(s.maxHeldSeen, held);
    s.burst = Math.max(1, window.quota === null ? s.maxHeldSeen : Math.min(window.quota, s.maxHeldSeen));
  }
  // In a unit whose costs are estimates (tokens: a prompt's length, a learned average), a few
  // percent off on many units looks like missing refill: there only a refusal is evidence.
  if (window.unit === 'requests') trackDryness(s, o, remaining);
  if (s.source === null || s.source === 'reset' || s.source === 'estimate')
    estimate(s, o, remaining, window.quota);
  const stated = resetRate(window, remaining);
  if (stated !== null && (s.source === null || s.source === 'reset') && stated > (s.rate ?? 0)) {
    s.rate = stated;
    s.source = 'reset';
  } else if (stated !== null && s.source === 'estimate' && window.unit !== 'requests') {
    // In a unit whose costs are estimates (tokens), a cost stated high reads as refill never given
    // (1,200 booked where the server counted 1,000 read 500 tokens/s as 4,900): the reset caps it.
    s.rate = Math.min(s.rate ?? stated, stated);
  }
  if (o.mark <= s.syncedMark) return;
  s.fullBy = o.at + fullInMs(s, window, remaining);
  const current = tokensAt(s, o.at, o.inFlight);
  // `remaining` is floored: the server holds up to one unit more. A configured bucket only corrects downwards.
  s.tokens =
    s.source === 'configured' && current !== null
      ? Math.min(current, remaining + 1 - EPSILON - o.inFlight)
      : remaining - o.inFlight;
  s.syncedMark = o.mark;
  s.updatedAt = Math.max(s.updatedAt, o.at);
  const measured = s.source !== null && s.source !== 'reset';
  if (remaining === 0 && o.outcome === 'answered' && !measured && window.resetInMs !== null) {
    // Nothing left and no rate measured: the reset is the only statement of when units come back
    // (a window may return nothing before it; the `reset` floor is an average, not a promise).
    s.holdUntil = Math.max(s.holdUntil, o.at + window.resetInMs);
  }
}

/**
 * A refusal in a unit whose costs are estimates (tokens), hinted, of a call this window had room
 * for by its booking: the server counts more than was booked (a cost stated a little low), and
 * each answer re-syncs the bucket to the server's count, so every call leaves early by as much
 * and is refused (a cost stated 5 % low, answers in 50 ms: 57 refusals, 16 calls ended in 429).
 * The key leaves that much later from then on: the hints add up, to at most {@link MAX_LATE_MS}.
 */
function keepLate(s: BucketModelState, o: Observation): void {
  const window = o.window;
  const hint = o.retryAfterMs;
  const remaining = window?.remaining ?? null;
  // A learned cost has answers of its own to follow (calls of several sizes learn their median).
  if (hint === null || window === null || remaining === null || window.unit === 'requests' || !o.costStated)
    return;
  if (!hadRoomFor(window, o.cost) || s.rate === null) return;
  // What the server counts, `remaining` and the hint's refill, at most twice the booking: past
  // that the figure is not a little low but another call's (one figure for calls of several
  // sizes: a call of 5,000 booked at 1,000).
  if (remaining + (hint * s.rate) / 1000 > 2 * o.cost) return;
  s.lateMs = Math.min(MAX_LATE_MS, s.lateMs + hint);
}

/**
 * The units {@link keepLate} keeps unused: its ms of refill at the rate (a cushion costs its own
 * refill once, not a slower pace: the bucket swings above it as it did above zero), at most one
 * call's refill and half the room the call leaves in the bucket.
 */
function lateUnits(s: BucketModelState, cost: number): number {
  if (s.lateMs === 0 || s.rate === null || !(s.rate > 0)) return 0;
  const units = Math.min(
    (s.lateMs * s.rate) / 1000,
    cost,
    ((s.burst ?? Number.POSITIVE_INFINITY) - cost) / 2,
  );
  return Math.max(0, units);
}

/**
 * At most this much later for {@link keepLate}: what a cushion costs is bounded by it, once. A
 * call's cost stated as one figure for calls of several sizes is refused with long hints (a call
 * of 5,000 booked at 1,000), and summed they held keys past `maxRetryAfterMs`.
 */
const MAX_LATE_MS = 1000;

/** Gives back the `cost` a send took that never left (its ticket went back unsent), up to full. */
export function refundSent(s: BucketModelState, cost: number): void {
  if (s.tokens !== null) s.tokens = Math.min(s.burst ?? Number.POSITIVE_INFINITY, s.tokens + cost);
}

/** The bucket model. */
export const bucketModel: ServerModel<BucketModelState> = {
  delay(s, cost, now, inFlight) {
    if (s.holdUntil > now) return s.holdUntil - now;
    const cushion = (s.source === 'configured' ? CONFIGURED_CUSHION : LEARNING_CUSHION) + lateUnits(s, cost);
    return tokenDelay(s, cost, cushion, now, inFlight, s.lastActivity);
  },

  sent(s, cost, now, _mark, inFlightBefore) {
    // Idle past the time it would be full again: the estimate's span would hide that refill.
    if (inFlightBefore === 0 && now >= s.fullBy) s.anchor = null;
    refill(s, now, inFlightBefore);
    if (s.tokens !== null) s.tokens -= cost;
    s.lastActivity = now;
    return s;
  },

  observe(s, o) {
    refill(s, o.at, o.inFlightBefore);
    s.lastActivity = o.at;
    if (o.window) {
      learnPolicy(s, o.statedRate);
      if (o.window.remaining !== null) sync(s, o, o.window);
    }
    if (o.outcome === 'limited') {
      // A refusal ends the estimate's clean span. With counters it is evidence against the model:
      // the cushion keeps a bucket that is read right from ever refusing.
      s.anchor = null;
      if (o.window?.remaining != null) s.falsifiedAt = o.at;
      keepLate(s, o);
    }
    return s;
  },

  snapshot(s, now, inFlight) {
    return { rate: s.rate, burst: s.burst, source: s.source, tokens: tokensAt(s, now, inFlight) };
  },

  /** Readings showed less refill than a bucket at the learned rate must give, or it was refused. */
  falsifiedAt(s) {
    return s.falsifiedAt;
  },
};

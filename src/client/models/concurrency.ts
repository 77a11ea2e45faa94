/**
 * The concurrency model: a server that refuses when too many of a key's calls are in flight at
 * once (GitHub's secondary limit "too many concurrent requests"), whatever the rate. Its unit is
 * one call in flight, not a request counted in a window: a rate limit and a concurrency limit are
 * different hypotheses and are tracked apart (the window models pace the rate; this one only caps
 * the calls in flight).
 *
 * Semantics (pure, times in monotonic ms, `inFlight` = the key's calls in flight):
 * - **Learn the cap only from refusals that come while others are in flight.** A refusal
 *   (`limited`) answered while `n ≥ 1` other calls were still in flight says the server admits at
 *   most `n` at once: the cap becomes `min(cap, n)`. It says nothing about concurrency when no
 *   other call was in flight; when a rate window explains it (the answer shows a window with
 *   `remaining: 0`: the primary limit); or when the server has been seen to admit more than `n`
 *   at once (`n + 1` or more calls admitted and in flight together: then it was a rate that
 *   refused, e.g. a per-second limit, not the number in flight).
 * - **Cap the calls in flight at what was admitted**: with a cap `c`, a call may go while fewer
 *   than `c` are in flight; otherwise only an answer can free a place (`delay` = `Infinity`).
 * - **Probe upward slowly**: a probe costs a refusal (and the server's retry hint), so the cap
 *   grows by one only after {@link PROBE_AFTER_MS} without a concurrency refusal and `c` answers
 *   that came while the cap was in full use.
 * - **Reopen gradually** after any refusal with a retry hint (the key's gate is then closed): once
 *   it opens, one call goes, and each answer lets one more go (the allowance doubles per round
 *   trip; answers to calls sent before the refusal do not count), until the allowance reaches
 *   the cap or the number in flight when the refusal came.
 *   A gate that reopened for every waiting call at once would refuse most of them again.
 */
import type { ModelSnapshot, Observation, ServerModel } from './model.js';

/** Quiet time (no concurrency refusal) before the cap may grow by one. */
export const PROBE_AFTER_MS = 30_000;

/** What the concurrency model knows about one key. */
export interface ConcurrencyModelState {
  /** Most calls the server admits in flight at once, or `null` while no refusal has said. */
  readonly cap: number | null;
  /** When the cap was last lowered (or raised by a probe); `-Infinity` before. */
  readonly changedAt: number;
  /** The marks of the calls sent and not settled yet, in the order they left. */
  readonly pending: readonly number[];
  /** When a refusal below the cap was last doubted; `-Infinity` before. */
  readonly doubtedAt: number;
  /** Answers that came while the cap was in full use, since `changedAt` or a doubted refusal. */
  readonly fullAnswers: number;
  /** Calls allowed in flight while reopening after a retry hint, or `null` when not reopening. */
  readonly ramp: number | null;
  /** The allowance at which reopening ends (calls in flight when the refusal came). */
  readonly rampEnd: number;
  /** When the refusal that started reopening came: only answers to calls sent since grow it. */
  readonly rampFrom: number;
}

/** A key about which nothing is known: no cap, not reopening. */
export function newConcurrency(): ConcurrencyModelState {
  return {
    cap: null,
    changedAt: Number.NEGATIVE_INFINITY,
    doubtedAt: Number.NEGATIVE_INFINITY,
    pending: [],
    fullAnswers: 0,
    ramp: null,
    rampEnd: 0,
    rampFrom: 0,
  };
}

/**
 * The calls sent before the answered one and still in flight: they were at the server when it
 * arrived (the calls sent after it may not have reached the server yet).
 */
function sentBefore(s: ConcurrencyModelState, o: Observation): number {
  let n = 0;
  for (const mark of s.pending) if (mark < o.mark) n++;
  return n;
}

/** Calls that may be in flight now. */
function allowance(s: ConcurrencyModelState): number {
  return Math.min(s.cap ?? Number.POSITIVE_INFINITY, s.ramp ?? Number.POSITIVE_INFINITY);
}

/** A refusal with others in flight that neither an exhausted window nor the reopening explains. */
function isConcurrencyRefusal(s: ConcurrencyModelState, o: Observation): boolean {
  const reopening = s.ramp !== null && o.sentAt >= s.rampFrom;
  return sentBefore(s, o) >= 1 && o.window?.remaining !== 0 && !reopening;
}

function afterRefusal(s0: ConcurrencyModelState, o: Observation): ConcurrencyModelState {
  const before = sentBefore(s0, o);
  const cap = s0.cap === null ? before : Math.min(s0.cap, before);
  // The server admitted the cap at once for a whole round: a refusal below it is doubted (a
  // per-second limit refuses at full use too), and so are those of calls sent before it came;
  // one of a call sent later, before another such round, is believed.
  const below = s0.cap !== null && before < s0.cap;
  const proven = below && s0.fullAnswers >= (s0.cap as number);
  const sameEpisode = below && o.sentAt < s0.doubtedAt;
  const s = !isConcurrencyRefusal(s0, o)
    ? s0
    : proven
      ? { ...s0, fullAnswers: 0, doubtedAt: o.at }
      : sameEpisode
        ? s0
        : { ...s0, cap, changedAt: o.at, fullAnswers: 0 };
  if (o.retryAfterMs === null) return s;
  const rampEnd = Math.max(s.ramp === null ? 0 : s.rampEnd, o.inFlightBefore);
  return { ...s, ramp: 1, rampEnd, rampFrom: o.at };
}

function afterAnswer(s0: ConcurrencyModelState, o: Observation): ConcurrencyModelState {
  let s = s0;
  if (s.ramp !== null && o.sentAt >= s.rampFrom) {
    const ramp = s.ramp + 1;
    s =
      ramp >= Math.min(s.rampEnd, s.cap ?? Number.POSITIVE_INFINITY) ? { ...s, ramp: null } : { ...s, ramp };
  }
  if (s.cap === null || o.inFlightBefore < s.cap) return s;
  const fullAnswers = s.fullAnswers + 1;
  if (fullAnswers >= s.cap && o.at - s.changedAt >= PROBE_AFTER_MS)
    return { ...s, cap: s.cap + 1, changedAt: o.at, fullAnswers: 0 };
  return { ...s, fullAnswers };
}

/**
 * The concurrency model as a {@link ServerModel} whose unit is one call in flight: `delay` is 0
 * while a place is free and `Infinity` (wait for an answer) when none is.
 */
export const concurrencyModel: ServerModel<ConcurrencyModelState> = {
  delay(s, cost, _now, inFlight) {
    return inFlight + cost <= allowance(s) ? 0 : Number.POSITIVE_INFINITY;
  },

  sent(s, _cost, _now, mark) {
    return { ...s, pending: [...s.pending, mark] };
  },

  observe(s0, o) {
    const s =
      o.outcome === 'limited' ? afterRefusal(s0, o) : o.outcome === 'answered' ? afterAnswer(s0, o) : s0;
    return { ...s, pending: s.pending.filter((mark) => mark !== o.mark) };
  },

  /** `burst`: the calls allowed in flight now (`null`: no cap); `tokens`: the places free. */
  snapshot(s, _now, inFlight): ModelSnapshot {
    const limit = allowance(s);
    if (limit === Number.POSITIVE_INFINITY) return { rate: null, burst: null, source: null, tokens: null };
    return { rate: null, burst: limit, source: null, tokens: Math.max(0, limit - inFlight) };
  },

  /** Nothing rules a cap out: a refusal lowers it, quiet answers raise it. */
  falsifiedAt() {
    return null;
  },
};

/**
 * The concurrency model: a server that refuses when too many of a key's calls are in flight at
 * once (GitHub's secondary limit "too many concurrent requests"), whatever the rate. Its unit is
 * one call in flight, not a request counted in a window: a rate limit and a concurrency limit are
 * different hypotheses and are tracked apart (the window models pace the rate; this one only caps
 * the calls in flight).
 *
 * Semantics (times in monotonic ms, `inFlight` = the key's calls in flight; `sent` and `observe`
 * update the state in place):
 * - **Learn the cap only from refusals that come while others are in flight.** A refusal
 *   (`limited`) of a call that reached the server while `n ≥ 1` calls sent before it were there
 *   (still in flight, or admitted and answered after it left) says the server admits at most `n`
 *   at once: the cap becomes `min(cap, n)`. It says nothing about concurrency when no
 *   other call was in flight; when a rate window explains it (the answer shows a window with
 *   `remaining: 0`: the primary limit; the pacer reports so a window of any unit left with less
 *   than the call cost there); when the server states no counters at all (its refusals
 *   are the no-counters model's rate to learn: a blind burst refused with a dozen in flight would
 *   otherwise cap the key below what its rate needs); or when the server has been seen to admit more than `n`
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
 * - **Calls per period** (GitHub's "too many requests per second"): a refusal with a retry hint
 *   while the server's counters state room left in their window, that the cap does not explain
 *   (more were admitted within one hint's length before it than were in flight), says the server
 *   admits at most the calls it admitted in that span: `perPeriod` becomes the lowest such count
 *   less one, over a period of the hint's length (at most {@link MAX_PERIOD_MS}; a hint of another
 *   length — a per-minute limit beside a per-second one — is a limit of its own); like the cap, it
 *   grows by one after {@link PROBE_AFTER_MS} without such a refusal. From then on a call may go
 *   while fewer than `perPeriod` calls were sent within the last period (a sliding log
 *   of what was admitted and what is in flight, over the period and {@link PERIOD_SLACK} more);
 *   otherwise `delay` is the time until the oldest of them leaves it, so the limit is met without
 *   a refusal per period.
 */
import type { ModelSnapshot, Observation, ServerModel } from './model.js';
import { PendingSends } from './pending-sends.js';

/** Quiet time (no concurrency refusal) before the cap may grow by one. */
export const PROBE_AFTER_MS = 30_000;
/** The longest period a per-period limit is kept over (a longer hint is read as this long). */
export const MAX_PERIOD_MS = 60_000;
/**
 * A per-period limit is paced over this share of the period longer: the server counts a call when
 * it arrives, a little after it left, and sends that leave right as an older one ages out collide.
 */
export const PERIOD_SLACK = 0.05;
/**
 * Most admitted sends a state views: a per-period limit above it is learned as this many (no API
 * states a per-second limit near it), and a busy key's log stays bounded.
 */
const LOG_MAX = 4096;

/** Most calls the server admits per `periodMs`. */
export interface PeriodLimit {
  perPeriod: number;
  periodMs: number;
  /** When `perPeriod` last changed. */
  at: number;
}

/** Most period limits a key keeps (a new hint length beyond them replaces the oldest learned). */
const MAX_PERIODS = 4;

/** The period limit a hint of `periodMs` speaks of: one within half to twice its length. */
function periodFor(s: ConcurrencyModelState, periodMs: number): PeriodLimit | undefined {
  for (const p of s.periods) if (periodMs <= p.periodMs * 2 && p.periodMs <= periodMs * 2) return p;
  return undefined;
}

/** What the concurrency model knows about one key. */
export interface ConcurrencyModelState {
  /** Most calls the server admits in flight at once, or `null` while no refusal has said. */
  cap: number | null;
  /** When the cap was last lowered (or raised by a probe); `-Infinity` before. */
  changedAt: number;
  /** The calls sent and not settled yet, by mark, in the order they left: when each left. */
  pending: PendingSends;
  /**
   * When the admitted calls left, in the order they were answered: a log of which the state reads
   * `admittedFrom` to its end (older entries left the view, and are dropped in batches).
   */
  admitted: number[];
  /** The same calls' marks and when each was answered, entry for entry with `admitted`. */
  admittedMarks: number[];
  answeredAt: number[];
  admittedFrom: number;
  /**
   * The calls-per-period limits refusals said, one per length of their retry hint (GitHub refuses
   * too many per second with a hint of a second, too many per minute with one of a minute): each
   * paces on its own. Empty while no refusal has said.
   */
  periods: PeriodLimit[];
  /** When a refusal below the cap was last doubted; `-Infinity` before. */
  doubtedAt: number;
  /** Answers that came while the cap was in full use, since `changedAt` or a doubted refusal. */
  fullAnswers: number;
  /** Calls allowed in flight while reopening after a retry hint, or `null` when not reopening. */
  ramp: number | null;
  /** The allowance at which reopening ends (calls in flight when the refusal came). */
  rampEnd: number;
  /** When the refusal that started reopening came: only answers to calls sent since grow it. */
  rampFrom: number;
}

/** A key about which nothing is known: no cap, not reopening. */
export function newConcurrency(): ConcurrencyModelState {
  return {
    cap: null,
    changedAt: Number.NEGATIVE_INFINITY,
    doubtedAt: Number.NEGATIVE_INFINITY,
    pending: new PendingSends(),
    admitted: [],
    admittedMarks: [],
    answeredAt: [],
    admittedFrom: 0,
    periods: [],
    fullAnswers: 0,
    ramp: null,
    rampEnd: 0,
    rampFrom: 0,
  };
}

/**
 * The calls sent before the answered one that were at the server with it: those still in flight,
 * and those admitted and answered after it left (a refusal takes a while to come back, and the
 * calls the server ran beside the refused one may be answered meanwhile). Calls sent after it
 * may not have reached the server yet; calls refused beside it held no place there. An admitted
 * call answered after it left but before it arrived is counted too: a cap read high is lowered by
 * the next refusal, one read low would hold the key below what the server admits for 30 s a step.
 */
function sentBefore(s: ConcurrencyModelState, o: Observation): number {
  const { pending } = s;
  let n = 0;
  for (let i = 0; i < pending.size; i++) if (pending.markAt(i) < o.mark) n++;
  // Answers are logged in the order they came: the scan stops at the first before it left.
  const { answeredAt, admittedMarks } = s;
  for (let i = answeredAt.length - 1; i >= s.admittedFrom && answeredAt[i]! > o.sentAt; i--)
    if (admittedMarks[i]! < o.mark) n++;
  return n;
}

/** Calls that may be in flight now. */
function allowance(s: ConcurrencyModelState): number {
  return Math.min(s.cap ?? Number.POSITIVE_INFINITY, s.ramp ?? Number.POSITIVE_INFINITY);
}

/**
 * A refusal with others in flight that neither an exhausted window nor the reopening explains,
 * from a server that states counters (one that states none is read by the no-counters model).
 */
function isConcurrencyRefusal(s: ConcurrencyModelState, o: Observation): boolean {
  const reopening = s.ramp !== null && o.sentAt >= s.rampFrom;
  // Room stated left (a counter above 0): a limit stated without a counter says nothing of room.
  return sentBefore(s, o) >= 1 && (o.window?.remaining ?? 0) > 0 && !reopening;
}

/** Calls sent within `(from, to]` that were admitted, or are still in flight. */
function sentWithin(s: ConcurrencyModelState, from: number, to: number): number {
  let n = 0;
  for (let i = s.admittedFrom; i < s.admitted.length; i++) {
    const at = s.admitted[i]!;
    if (at > from && at <= to) n++;
  }
  const { pending } = s;
  for (let i = 0; i < pending.size; i++) {
    const at = pending.valueAt(i);
    if (at > from && at <= to) n++;
  }
  return n;
}

/**
 * A refusal with a retry hint while the window states room left, that the cap does not explain:
 * the server admits at most what it admitted within one hint's length before it.
 */
function learnPerPeriod(s: ConcurrencyModelState, o: Observation, cap: boolean): void {
  if (o.retryAfterMs === null || !((o.window?.remaining ?? 0) > 0) || cap) return;
  const periodMs = Math.min(MAX_PERIOD_MS, Math.max(1, o.retryAfterMs));
  // The refused call itself is pending: it left at `o.sentAt`, and counts nothing.
  const admitted = sentWithin(s, o.sentAt - periodMs, o.sentAt) - 1;
  if (admitted <= sentBefore(s, o)) return; // no more than were in flight: the cap's to explain
  const perPeriod = Math.max(1, admitted - 1);
  const same = periodFor(s, periodMs);
  if (same) {
    same.periodMs = Math.max(same.periodMs, periodMs);
    same.perPeriod = Math.min(same.perPeriod, perPeriod);
    same.at = o.at;
    return;
  }
  if (s.periods.length >= MAX_PERIODS) s.periods.shift();
  s.periods.push({ periodMs, perPeriod, at: o.at });
}

function afterRefusal(s: ConcurrencyModelState, o: Observation): void {
  const before = sentBefore(s, o);
  const cap = s.cap === null ? before : Math.min(s.cap, before);
  // The server admitted the cap at once for a whole round: a refusal below it is doubted (a
  // per-second limit refuses at full use too), and so are those of calls sent before it came;
  // one of a call sent later, before another such round, is believed.
  const below = s.cap !== null && before < s.cap;
  const proven = below && s.fullAnswers >= (s.cap as number);
  const sameEpisode = below && o.sentAt < s.doubtedAt;
  const refusal = isConcurrencyRefusal(s, o);
  const believed = refusal && !proven && !sameEpisode;
  if (believed) {
    s.cap = cap;
    s.changedAt = o.at;
    s.fullAnswers = 0;
  } else if (proven && refusal) {
    s.fullAnswers = 0;
    s.doubtedAt = o.at;
  }
  learnPerPeriod(s, o, believed);
  if (o.retryAfterMs === null) return;
  s.rampEnd = Math.max(s.ramp === null ? 0 : s.rampEnd, o.inFlightBefore);
  s.ramp = 1;
  s.rampFrom = o.at;
}

/**
 * Logs the admitted call `o` answered (when it left, its mark, when it was answered). Sends older than any period the
 * state asks about leave its view (answers come nearly in send order, so the scan stops at the
 * first one kept), the view holds at most {@link LOG_MAX}, and the entries that left it are
 * dropped once they are as many as the view holds: amortized O(1) per answer.
 */
function logAdmitted(s: ConcurrencyModelState, o: Observation): void {
  const now = o.at;
  // The longest period a refusal may speak of: a later, longer hint counts what was admitted over it.
  const keepFrom = now - MAX_PERIOD_MS * (1 + PERIOD_SLACK);
  const log = s.admitted;
  let from = s.admittedFrom;
  while (from < log.length && log[from]! <= keepFrom) from++;
  from = Math.max(from, log.length - LOG_MAX + 1);
  if (from >= LOG_MAX) {
    log.splice(0, from);
    s.admittedMarks.splice(0, from);
    s.answeredAt.splice(0, from);
    from = 0;
  }
  log.push(o.sentAt);
  s.admittedMarks.push(o.mark);
  s.answeredAt.push(now);
  s.admittedFrom = from;
}

function afterAnswer(s: ConcurrencyModelState, o: Observation): void {
  logAdmitted(s, o);
  for (const p of s.periods)
    if (o.at - p.at >= PROBE_AFTER_MS) {
      p.perPeriod++;
      p.at = o.at;
    }
  if (s.ramp !== null && o.sentAt >= s.rampFrom) {
    const ramp = s.ramp + 1;
    s.ramp = ramp >= Math.min(s.rampEnd, s.cap ?? Number.POSITIVE_INFINITY) ? null : ramp;
  }
  if (s.cap === null || o.inFlightBefore < s.cap) return;
  const fullAnswers = s.fullAnswers + 1;
  if (fullAnswers >= s.cap && o.at - s.changedAt >= PROBE_AFTER_MS) {
    s.cap++;
    s.changedAt = o.at;
    s.fullAnswers = 0;
  } else s.fullAnswers = fullAnswers;
}

/**
 * ms until a call of `cost` fits period limit `p`: the sorted send times within the period (and
 * its slack); the call may go once all but `perPeriod − cost` left it.
 */
function periodDelay(s: ConcurrencyModelState, p: PeriodLimit, cost: number, now: number): number {
  const periodMs = p.periodMs * (1 + PERIOD_SLACK);
  const from = now - periodMs;
  const within: number[] = [];
  // From the newest back: answers come nearly in send order, so the scan stops a period past the
  // period's start instead of reading the whole log (kept over the longest period a hint may name).
  const stopAt = from - p.periodMs;
  for (let i = s.admitted.length - 1; i >= s.admittedFrom; i--) {
    const at = s.admitted[i]!;
    if (at > from) within.push(at);
    else if (at <= stopAt) break;
  }
  const { pending } = s;
  for (let i = 0; i < pending.size; i++) if (pending.valueAt(i) > from) within.push(pending.valueAt(i));
  const over = within.length + cost - p.perPeriod;
  if (over <= 0) return 0;
  within.sort((a, b) => a - b);
  return Math.max(0, within[over - 1]! + periodMs - now);
}

/**
 * The concurrency model as a {@link ServerModel} whose unit is one call in flight: `delay` is 0
 * while a place is free and the per-period limit allows, the time until it does when only that
 * binds, and `Infinity` (wait for an answer) when no place is free.
 */
export const concurrencyModel: ServerModel<ConcurrencyModelState> = {
  delay(s, cost, now, inFlight) {
    if (inFlight + cost > allowance(s)) return Number.POSITIVE_INFINITY;
    let ms = 0;
    for (const p of s.periods) ms = Math.max(ms, periodDelay(s, p, cost, now));
    return ms;
  },

  sent(s, _cost, now, mark) {
    s.pending.add(mark, now);
    return s;
  },

  /** Reads the observation's window of a refusal only (the pacer leaves it out of the others). */
  observe(s, o) {
    if (o.outcome === 'limited') afterRefusal(s, o);
    else if (o.outcome === 'answered') afterAnswer(s, o);
    s.pending.take(o.mark);
    return s;
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

/**
 * No-counters model: the server says nothing but a refusal (a bare `429`, perhaps with
 * `Retry-After`), so its rate is learned from refusals alone.
 *
 * Unpaced until the first refusal. That refusal starts pacing at twice what got through, per
 * `Retry-After` period (a floor the server has shown it allows), growing 1.5× every quarter second
 * once the gate opens (slow start); what got through before it, `B`, bounds the server's burst from
 * above. A later refusal means the server's bucket was empty when the refused send arrived: of the
 * units sent since any earlier send t (since the gate opened), at most `B` came from the bucket and
 * the rest from refill, so rate ≥ (sent since t − B) / (now − t). The rate goes to the best such
 * bound, but never below half nor above 95 % of the refused rate. Clean time after the gate then
 * adds back a quarter of the gap to that refused rate per second (at least 1/32 of the rate): the
 * server's rate lies in that gap, and one more refusal gates the key for a whole `Retry-After`,
 * which costs far more than pacing a few percent slow. One cut per episode (refusals of sends made
 * before the last cut belong to it), and only small bursts: the server's burst is unknown.
 */
import { LEARNING_CUSHION, stored, type Tokens, tokenDelay, tokensAt } from './bucket.js';
import type { ServerModel } from './model.js';

/** One send since the last cut: when, and the cumulative units sent before it. */
interface Send {
  at: number;
  start: number;
}

/** State of the no-counters model. */
export interface NoCountersModelState extends Tokens {
  /** Cumulative units sent (the mark of the newest send). */
  readonly sentMark: number;
  readonly lastActivity: number;
  readonly lastIncrease: number;
  readonly recoveryPerSecond: number;
  readonly slowStart: boolean;
  /** Successes since the last cut (before the first: at least the server's burst). */
  readonly episodeSuccesses: number;
  readonly cutMark: number;
  /** Successes before the first refusal: an upper bound of the server's burst. */
  readonly burstBound: number | null;
  /** Sends since the last cut. Append-only within one episode; a cut starts a new array. */
  readonly sendLog: Send[];
}

/** Slow start grows the rate this often. */
const SLOW_START_STEP_MS = 250;
/** Sends remembered for the admitted-rate bound of a refusal. */
const MAX_SEND_LOG = 4096;
/** After a later cut, clean time adds back at least this fraction of the rate per second. */
const GENTLE_RECOVERY = 1 / 32;

/** A fresh no-counters model: unpaced until the first refusal. */
export function newNoCounters(now: number): NoCountersModelState {
  return {
    rate: null,
    burst: null,
    tokens: null,
    updatedAt: now,
    sentMark: 0,
    lastActivity: now,
    lastIncrease: 0,
    recoveryPerSecond: 1,
    slowStart: false,
    episodeSuccesses: 0,
    cutMark: 0,
    burstBound: null,
    sendLog: [],
  };
}

/** A small burst for a learned rate: the server's own burst is unknown. */
const smallBurst = (rate: number) => Math.max(2, Math.ceil(rate / 20));

/** Lower bound on the server's rate from the sends before the refused one (`mark`); 0 if none. */
function admittedBound(s: NoCountersModelState, mark: number): number {
  // The refused send is the last one logged that started below `mark`.
  const sends = s.sendLog.filter((send) => send.start < mark);
  const end = sends.pop();
  if (end === undefined || s.burstBound === null) return 0;
  let best = 0;
  for (const send of sends) {
    const span = (end.at - send.at) / 1000;
    if (span > 0) best = Math.max(best, (end.start - send.start - s.burstBound) / span);
  }
  return best;
}

/** A refusal of the send marked `mark`, at `now`, with the server's hint. */
export function cut(
  s: NoCountersModelState,
  mark: number,
  hintMs: number | null,
  now: number,
): NoCountersModelState {
  if (mark <= s.cutMark) return s;
  const period = Math.max(1000, hintMs ?? 0) / 1000;
  const first = s.rate === null;
  let rate: number;
  let recoveryPerSecond: number;
  let burstBound = s.burstBound;
  if (first) {
    burstBound = Math.max(1, s.episodeSuccesses);
    rate = Math.max(0.1, (2 * burstBound) / period);
    recoveryPerSecond = rate / 4;
  } else {
    const refusedAt = s.rate as number;
    rate = Math.max(0.1, Math.min(0.95 * refusedAt, Math.max(refusedAt / 2, admittedBound(s, mark))));
    recoveryPerSecond = Math.max(rate * GENTLE_RECOVERY, (0.95 * refusedAt - rate) / 4);
  }
  return {
    ...s,
    rate,
    recoveryPerSecond,
    burstBound,
    cutMark: s.sentMark,
    slowStart: first,
    sendLog: [],
    episodeSuccesses: 0,
    burst: smallBurst(rate),
    tokens: 0,
    updatedAt: now,
    // The key is gated for the hint: clean time starts when it opens (slow start grows then).
    lastIncrease: now + (hintMs ?? 0) - (first ? SLOW_START_STEP_MS : 0),
  };
}

/** A success: slow start grows the rate 1.5× per 250 ms, later it adds back linearly. */
export function recover(s0: NoCountersModelState, now: number): NoCountersModelState {
  const s = { ...s0, episodeSuccesses: s0.episodeSuccesses + 1 };
  if (s.rate === null) return s;
  const elapsed = now - s.lastIncrease;
  let rate: number;
  if (s.slowStart) {
    if (elapsed < SLOW_START_STEP_MS) return s;
    rate = s.rate * 1.5;
  } else {
    if (elapsed <= 0) return s;
    rate = s.rate + (s.recoveryPerSecond * elapsed) / 1000;
  }
  return { ...s, rate, burst: smallBurst(rate), lastIncrease: now };
}

/** The no-counters model. */
export const noCountersModel: ServerModel<NoCountersModelState> = {
  delay(s, cost, now, inFlight) {
    return tokenDelay(s, cost, LEARNING_CUSHION, now, inFlight, s.lastActivity);
  },

  sent(s0, cost, now, mark, inFlightBefore) {
    let s = stored(s0, now, inFlightBefore);
    if (s.rate !== null) {
      if (s.sendLog.length >= MAX_SEND_LOG) s = { ...s, sendLog: s.sendLog.slice(MAX_SEND_LOG / 2) };
      s.sendLog.push({ at: now, start: mark - cost });
    }
    return { ...s, tokens: s.tokens === null ? null : s.tokens - cost, sentMark: mark, lastActivity: now };
  },

  observe(s0, o) {
    const s = { ...stored(s0, o.at, o.inFlightBefore), lastActivity: o.at };
    if (o.outcome === 'limited') return cut(s, o.mark, o.retryAfterMs, o.at);
    if (o.outcome === 'answered') return recover(s, o.at);
    return s;
  },

  snapshot(s, now, inFlight) {
    return {
      rate: s.rate,
      burst: s.burst,
      source: s.rate === null ? null : 'aimd',
      tokens: tokensAt(s, now, inFlight),
    };
  },

  /** The only model for a server without counters: it adapts to refusals rather than failing on them. */
  falsifiedAt() {
    return null;
  },
};

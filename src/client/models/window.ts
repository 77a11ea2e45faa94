/**
 * Window model: the server counts what it admitted in a window of `limit` units and gives each
 * unit back no later than `windowMs` after it counted it — at the window's end for a fixed window,
 * exactly then for a sliding log. So a unit whose answer arrived at `t` (the server counted it
 * before `t`) is back by `t + windowMs`, and every unit is back by the reset the answer states.
 * Sending again at that moment uses each window exactly once, wherever its boundary lies: the
 * batch spends a window's quota at once, then again one window later, which is the server's
 * minimum.
 *
 * The model keeps a ledger of answered units still counted, each with the time it is back by
 * (the earlier of `answer + windowMs` and the answer's reset), and re-syncs it with every newer
 * reading: when the server counts fewer than the ledger, by more than answers overtaking each other
 * explain (the sends in flight when the answered one left, or when its answer came: a fixed
 * window's boundary passed), the oldest entries are dropped; when it counts more (another client,
 * or sends still in flight), the difference is held until the reset. Units in flight always count.
 *
 * Until the ledger's returns are confirmed, a send that needs returned units goes alone, and one
 * unit's share of the window (`windowMs / limit`, plus 2 ms of clock slack) after the ledger says
 * they are back: a count that creeps back at `limit` per window (a sliding window counter) admits
 * that send, and its answer shows the server still counting what the ledger gave back — two units
 * of that, at once or over several tests, contradict the model, and rule it out when no other
 * client's units were held (the count creeps back: the model never again governs before another,
 * even when the bucket's rate is contradicted in a window that creeps back slower, and whatever it
 * sees later). Until then, too, the units that the allowance for sends in flight explains at an
 * answer may be returns still counted (a creeping count as slow as the ledger's returns, after a
 * first window spent slowly): as many of them as the ledger gave back since a send that went alone
 * last counted them are held with another client's, so sends never go together on them. Only a
 * send that went and came back alone is a test: one among others may have been counted long
 * before its answer was read. A fixed window is confirmed by one test that counts nothing of the
 * window before (its boundary passed; a creeping count read late still counts some); a sliding
 * log once a quarter of the limit came back as the ledger said, and the units after the first
 * agreeing reading faster than `limit` per window, which no creeping count gives back.
 * So a server that does not give units back refuses at most one send, and usually none.
 *
 * `windowMs` comes from the server's stated rate (`limit / rate`: a policy of `q` per `w` over a
 * window of `limit`). A server that states neither its window nor a rate (`X-RateLimit-*`) leaves
 * it to the configured rate, when there is one (`maxRate`) and the window is larger than the
 * configured burst (`maxBurst`; a smaller one the configured bucket already spends at once): its
 * window of `limit` is read as `limit / maxRate` long, the window the user's figure describes (100
 * per second read as a window of 100: one second). That is a prior, never confirmed (each window's
 * first return goes alone), and a refusal of a send made on a return only the prior foresaw rules
 * the prior out (not the model); with neither, each unit waits for its reset.
 * Once the window's length is known (stated, or the prior), the model paces a configured key in
 * place of the configured bucket (whose burst is the user's guess), and the configured rate bounds
 * it from above as a bucket of `maxRate` whose capacity is the window's limit, full when the first
 * reading came (what the server counted then already spent): at most `limit + maxRate × t` units
 * go in any span `t`, however early the server says units are back. The bound is applied where the
 * window could outpace the rate (the prior, or a stated rate above `maxRate`). So the configured
 * figure caps the average pace without holding the server's word (a window's quota at once)
 * against it.
 *
 * A refusal that the ledger did not foresee means the window was misjudged: from then on each
 * unit waits for the longest window the server's statements allow (a configured prior no longer
 * counts). Such a refusal — unless it refuted the prior, the user's figure rather than the model
 * — and a server that counts more than the ledger and the
 * sends in flight explain (units it should have given back), contradict the model; two or more
 * units back before a sliding log could give them back while the server still counts many (a
 * count that creeps back) rule it out. One unit is not enough: a send counted in one fixed window
 * and answered in the next is back "early" too.
 *
 * `sent` and `observe` update the state in place (the {@link ServerModel} contract), its ledger
 * included.
 */
import { refill, type Tokens, tokenDelay } from './bucket.js';
import { EPSILON, hadRoomFor, type ModelSnapshot, type Observation, type ServerModel } from './model.js';
import { PendingSends } from './pending-sends.js';
import { CLOCK_SLACK_MS, Ledger } from './window-ledger.js';

/** State of the window model. */
export interface WindowModelState {
  /** Units per window: the stated limit, or the most ever seen left plus one. `null` until a reading. */
  limit: number | null;
  /**
   * Window length, from the stated rate, else `limit / maxRate` (the configured prior); `null`
   * when unknown (units then wait for the reset).
   */
  windowMs: number | null;
  /** A refusal the ledger did not foresee: from then on, the longest window the statements allow is used. */
  cautious: boolean;
  /** `windowMs` is the configured prior (`limit / maxRate`): the server stated neither window nor rate. */
  prior: boolean;
  /**
   * The earliest a unit came back on the prior's word alone (before its stated reset): only a send
   * after it can be refused for the prior. `Infinity` until then.
   */
  priorBackAt: number;
  /** When the server last counted what the model cannot explain (an unforeseen refusal, units not back). */
  falsifiedAt: number | null;
  /** Answered units still counted, ascending by when they are back ({@link Ledger}). */
  ledger: Ledger;
  /** Units counted by the server that are neither in the ledger nor in flight, and when they are back. */
  foreign: number;
  foreignBackAt: number;
  /**
   * Units held with the foreign ones (until the same time) though the reading may not count them:
   * until the returns are confirmed, those of the ledger's returns that the allowance for sends in
   * flight may hide ({@link WindowModelState.unverified}).
   */
  unsure: number;
  /**
   * Units the ledger gave back that the server may still count, while not confirmed: those it gave
   * back since a reading last counted them with no allowance for sends in flight (a send that went
   * and came back alone), and those that reading found still counted.
   */
  unverified: number;
  /** Units in flight before each send still unanswered, by its mark. */
  inFlightAtSend: PendingSends;
  syncedMark: number;
  maxRemainingSeen: number;
  /** Space the quota evenly over the window (`quota: 'spread'`) instead of spending it at once. */
  spread: boolean;
  /** A configured rate (units/s) that bounds the spending from above, or `null`. */
  maxRate: number | null;
  /** The configured burst: a window of no more than this is already spent at once by the configured bucket. */
  maxBurst: number | null;
  /**
   * The configured rate's bound: a bucket of `maxRate` with the window's limit as its capacity,
   * from the first reading on; `null` unconfigured or before a reading.
   */
  rateBound: Tokens | null;
  /** The last send, for the spacing of `spread`. */
  lastSentAt: number;
  /**
   * A reading has shown units back when the ledger said they would be — just those (a sliding log),
   * or all at once (a fixed window) — so its returns can be spent at once.
   */
  confirmed: boolean;
  /**
   * Units whose return readings have agreed with, one test at a time, while not confirmed. A sliding
   * log is confirmed once a quarter of the limit agreed, faster than a count that creeps back
   * could give them back (see `agreedFromAt`).
   */
  agreed: number;
  /**
   * When the agreement began (the send of the first agreeing reading since none, or since a failed
   * test: the server counted it no earlier), and the units that reading agreed on: a sliding log is told from a count that creeps back by the
   * units agreed after it coming back faster than `limit` per window, which no creeping count does.
   */
  agreedFromAt: number;
  agreedAtFirst: number;
}

/** Slots per window that the ledger's entries are grouped in (1 ms slots when the window is unknown). */
const SLOTS_PER_WINDOW = 256;
const slotOf = (windowMs: number | null) => Math.max(1, (windowMs ?? 0) / SLOTS_PER_WINDOW);

/**
 * A window model that knows nothing yet; `spread` spaces each window's quota evenly; `maxRate` (a
 * configured rate, units/s) bounds what it may spend, and with `maxBurst` (the configured burst)
 * gives the length of a window larger than that burst that states none.
 */
export function newWindow(
  spread = false,
  maxRate: number | null = null,
  maxBurst: number | null = null,
): WindowModelState {
  return {
    limit: null,
    windowMs: null,
    cautious: false,
    prior: false,
    priorBackAt: Number.POSITIVE_INFINITY,
    falsifiedAt: null,
    ledger: new Ledger(),
    foreign: 0,
    foreignBackAt: 0,
    unsure: 0,
    unverified: 0,
    inFlightAtSend: new PendingSends(),
    syncedMark: -1,
    maxRemainingSeen: -1,
    spread,
    maxRate,
    maxBurst,
    rateBound: null,
    lastSentAt: Number.NEGATIVE_INFINITY,
    confirmed: false,
    agreed: 0,
    agreedFromAt: 0,
    agreedAtFirst: 0,
  };
}

/** The server did what the model cannot explain at `at`; a model ruled out stays ruled out. */
function contradict(s: WindowModelState, at: number): void {
  if (s.falsifiedAt !== Number.POSITIVE_INFINITY) s.falsifiedAt = at;
}

/** Units counted at `t`: in flight, ledger entries not yet back, and foreign units not yet back. */
function countedAt(s: WindowModelState, t: number, inFlight: number): number {
  return inFlight + (s.foreignBackAt > t ? held(s) : 0) + s.ledger.unitsAfter(t);
}

/** Units held until `foreignBackAt`: foreign ones, and returns a reading may not have counted. */
const held = (s: WindowModelState) => s.foreign + s.unsure;

/**
 * The window the statements allow: `limit / statedRate`, else the configured prior `limit /
 * maxRate` when nothing is stated, or (cautious) the stated window length alone; notes in
 * `s.prior` whether it is the prior.
 */
function windowLength(s: WindowModelState, limit: number, o: Observation): number | null {
  const stated = o.window?.windowMs ?? null;
  s.prior = false;
  if (s.cautious) return stated;
  if (o.statedRate === null || !(o.statedRate > 0)) {
    // Only a window larger than the configured burst needs it: a smaller one the configured bucket
    // already spends at once, and it keeps pacing beside the window.
    if (stated !== null || s.maxRate === null || !(s.maxRate > 0) || limit <= (s.maxBurst ?? 0))
      return stated;
    s.prior = true;
    return (limit * 1000) / s.maxRate;
  }
  const derived = (limit * 1000) / o.statedRate;
  return stated === null ? derived : Math.min(stated, derived);
}

/**
 * Keeps the configured rate's bound in step with the window: its capacity is the limit; the
 * first reading fills it with what the window had left (the units the server counted by then,
 * sent before the model saw them, are spent from it).
 */
function boundRate(s: WindowModelState, limit: number, remaining: number, o: Observation): void {
  if (s.maxRate === null) return;
  if (s.rateBound === null)
    s.rateBound = { rate: s.maxRate, burst: limit, tokens: remaining - o.inFlight, updatedAt: o.at };
  else s.rateBound.burst = limit;
}

function sync(
  s: WindowModelState,
  o: Observation,
  remaining: number,
  inFlightAtSend: number | undefined,
  refutesPrior: boolean,
): void {
  const window = o.window!;
  s.maxRemainingSeen = Math.max(s.maxRemainingSeen, remaining);
  // An IETF quota is a rate statement (`q` per `w`), not the window's limit: the most ever seen
  // left stands for it, but never above `q` (no window of `w` or less holds more than `q`: a quota
  // lowered by a deploy lowers the limit, where the most seen left would keep the old one). Other
  // dialects state the limit, which is followed as stated, down too.
  const stated = o.statedPolicy ? null : window.quota;
  const limit =
    stated === null
      ? Math.max(Math.min(window.quota ?? Number.POSITIVE_INFINITY, s.maxRemainingSeen + 1), remaining + 1)
      : Math.max(stated, remaining);
  s.limit = limit;
  s.windowMs = windowLength(s, limit, o);
  boundRate(s, limit, remaining, o);
  const resetAt = window.resetInMs === null ? Number.POSITIVE_INFINITY : o.at + window.resetInMs;
  const dueAt = s.windowMs === null ? Number.NEGATIVE_INFINITY : o.sentAt + s.windowMs;
  const ownBackAt = Math.min(s.windowMs === null ? Number.POSITIVE_INFINITY : o.at + s.windowMs, resetAt);
  if (s.prior && ownBackAt < resetAt) s.priorBackAt = Math.min(s.priorBackAt, ownBackAt);
  // Every unit counted now is back by the stated reset.
  const ledger = s.ledger;
  ledger.clampTo(resetAt);
  // A refusal adds nothing to the count (a server that counts it shows up as another client's units).
  if (o.outcome !== 'limited') ledger.insert(ownBackAt, o.cost, o.mark, dueAt, slotOf(s.windowMs));
  // Units due within the clock slack may still be counted by a server whose clock runs a little behind.
  const { returned, justDue } = ledger.dropDue(o.at);
  if (!s.confirmed) s.unverified += returned;
  if (o.mark <= s.syncedMark) return;
  // The server counted this send and what reached it before: the sends made before it (in the
  // ledger, or still in flight) and perhaps some made after it that were answered first.
  const serverCount = limit - remaining;
  const after = ledger.unitsAfterMark(o.mark);
  const before = ledger.totalUnits() - after;
  const inFlightBefore = Math.max(0, o.inFlightBefore - o.cost);
  // Fewer counted than were sent before it, by more than the sends it may have overtaken (as many as
  // are in flight, or were when it left: answers overtake each other on the way back too): those
  // are back already (a fixed window's boundary passed).
  const back = before - serverCount - Math.max(inFlightBefore, inFlightAtSend ?? inFlightBefore);
  const early = back > 0 ? ledger.dropOldest(back, o.at) : 0;
  // More counted than all that may have reached it: units the model thought back (a count that
  // creeps back, as a sliding window counter's does) or another client's. Answers that overtook
  // each other leave a few units unexplained: only a quarter of the limit counts.
  const unexplainedCount = serverCount - before - after;
  const foreign = Math.max(0, unexplainedCount - inFlightBefore);
  // Until the returns are confirmed, the units the allowance for sends in flight explains may be
  // the ledger's returns still counted (a count that creeps back more slowly than they come):
  // those are held, or sends that went together on them would be refused. A reading with no
  // allowance counted every return.
  const allowed = Math.max(0, Math.min(unexplainedCount, inFlightBefore));
  if (inFlightBefore <= EPSILON) s.unverified = foreign;
  const unsure = s.confirmed ? 0 : Math.min(allowed, s.unverified);
  const foreignBackAt = Number.isFinite(resetAt) ? resetAt : o.at + (s.windowMs ?? 0);
  // A fixed window gives its units back all at once, a sliding log each one window after it reached
  // the server (never before its send plus the window): units back before that while the server
  // still counts many (a quarter of the limit) are a count that creeps back. One such unit is the
  // noise of a send that crossed the boundary (counted in the old window, answered in the new): two.
  const creeping = early >= 2 && serverCount >= limit / 4;
  // Until confirmed, each return is tested: two units (more than `remaining`'s flooring) that the
  // server still counts after the ledger gave them back, now or held from earlier tests, contradict
  // the model; units just due may still be counted by a server whose clock runs a little behind.
  // A test is a send that went and came back alone: one among others may have been counted long
  // before its answer came (a busy host), when the ledger's later returns were still counted.
  const unreturned = foreign - justDue;
  const alone = Math.max(inFlightBefore, inFlightAtSend ?? 0) <= EPSILON;
  const failedTest = !s.confirmed && alone && returned > 0 && unreturned >= 2;
  // Units back as a sliding log gives them back: when the ledger said, or a little earlier.
  const backInTime = returned + Math.max(0, back) - early;
  const agrees = backInTime > 0 && unreturned <= 1;
  const agreed = s.confirmed || !agrees ? (failedTest ? 0 : s.agreed) : s.agreed + backInTime;
  // A failed test with the count explained until the returns were due (no other client's units
  // held) is a count that creeps back, as surely as early returns are.
  const creepsBack = creeping || (failedTest && (s.foreignBackAt <= o.at || s.foreign <= 1));
  const unexplained = failedTest || foreign >= Math.max(2, limit / 4);
  s.foreign = foreign;
  s.unsure = unsure;
  s.foreignBackAt = foreignBackAt;
  s.syncedMark = o.mark;
  if (agreed > 0 && s.agreed === 0) {
    s.agreedFromAt = o.sentAt;
    s.agreedAtFirst = agreed;
  }
  s.agreed = agreed;
  // A creeping count gives back at most `limit` per window (when the window before was full),
  // plus a unit of `remaining`'s flooring at each end.
  const creepMax = s.windowMs === null ? 0 : (limit * (o.at - s.agreedFromAt)) / s.windowMs;
  const outpacesCreep = agreed - s.agreedAtFirst > creepMax + 2;
  // A fixed window past its boundary counts nothing of the window before: only this send, those
  // that may have reached it first, and a unit of flooring. (A count that creeps back, read late
  // in its window after a slow start, counts little, but some of the window before.)
  const overtaken = Math.max(inFlightBefore, inFlightAtSend ?? inFlightBefore) + after;
  const boundaryPassed = serverCount <= limit / 4 && serverCount <= o.cost + overtaken + 1;
  // A refusal of the configured prior's window shows the server still counting what the prior
  // gave back: evidence against the user's figure, not against a window.
  if (refutesPrior) return;
  // A return on the configured prior's time is never confirmed: a boundary that passed before it
  // says nothing of the window's length, so each window's first return goes alone, and the one
  // the prior misjudged is refused alone.
  s.confirmed ||=
    !s.prior && agrees && (boundaryPassed || (early === 0 && agreed >= limit / 4 && outpacesCreep));
  // No window creeps back: that rules the model out for good (it never again governs before another).
  if (creepsBack) s.falsifiedAt = Number.POSITIVE_INFINITY;
  else if (unexplained) contradict(s, o.at);
}

/**
 * ms until `cost` units are free when every unit is used as soon as it is back. Until a reading has
 * confirmed the ledger's returns once, a send that needs returned units goes alone: its answer
 * tells whether they are really back (a count that creeps back, as a sliding window counter's
 * does, would refuse a whole batch).
 */
function spendDelay(s: WindowModelState, limit: number, cost: number, now: number, inFlight: number): number {
  // The test of an unconfirmed return waits one unit's share of the window (plus the clock slack)
  // longer: a count that creeps back at `limit` per window admits it then, and its answer tells.
  const lag = s.confirmed ? 0 : (s.windowMs ?? 0) / limit + CLOCK_SLACK_MS;
  const seen = now - lag;
  const free = limit - countedAt(s, seen, inFlight);
  if (free >= cost - EPSILON) {
    if (s.confirmed || limit - inFlight - held(s) - s.ledger.totalUnits() >= cost - EPSILON) return 0;
    return inFlight <= EPSILON ? 0 : Number.POSITIVE_INFINITY;
  }
  // Walk the returns in time order until enough is back.
  const foreign = held(s) > 0 && s.foreignBackAt > seen ? { units: held(s), backAt: s.foreignBackAt } : null;
  const backAt = s.ledger.backAtReaching(seen, free, cost - EPSILON, foreign);
  // Returns that never add up to the cost (a call costing more than the window holds): an answer
  // may still change that, but with nothing in flight none will come, so the call goes (the
  // server judges it) rather than wait forever.
  if (backAt === null) return inFlight <= EPSILON ? 0 : Number.POSITIVE_INFINITY;
  return Number.isFinite(backAt) ? Math.ceil(backAt - seen) : Infinity;
}

/**
 * True when the model enforces its configured rate itself: a reading gave it the window's limit
 * and its length (stated, or the prior). A window of unknown length leaves the pacing to the
 * configured bucket, beside it.
 */
export function boundsConfiguredRate(s: WindowModelState): boolean {
  return s.rateBound !== null && s.windowMs !== null;
}

/**
 * True when the configured rate's bound may bind: the window's length is only the prior, or its
 * stated rate is above the configured one. A window the server states at or below the configured
 * rate keeps to it on average by itself (a bound as tight as the window would carry a stalled
 * window's delay into every later one).
 */
function rateBoundBinds(s: WindowModelState, limit: number): boolean {
  if (!boundsConfiguredRate(s) || s.windowMs === null || s.maxRate === null) return false;
  return s.prior || (limit * 1000) / s.windowMs > s.maxRate + EPSILON;
}

/** Units per second the model spends at most: the window's own rate, bounded by the configured one. */
function paceOf(s: WindowModelState, limit: number, windowMs: number): number {
  const own = (limit * 1000) / windowMs;
  return s.maxRate === null ? own : Math.min(own, s.maxRate);
}

/** The window model. */
export const windowModel: ServerModel<WindowModelState> = {
  delay(s, cost, now, inFlight) {
    if (s.limit === null) return 0;
    const spacing =
      s.spread && s.windowMs !== null
        ? s.lastSentAt + (cost * 1000) / paceOf(s, s.limit, s.windowMs) - now
        : 0;
    // The configured rate's bound keeps no cushion: the window's ledger already keeps its count.
    const bound =
      s.rateBound === null || !rateBoundBinds(s, s.limit)
        ? 0
        : tokenDelay(s.rateBound, cost, 0, now, inFlight, now);
    return Math.max(Math.ceil(spacing), bound, spendDelay(s, s.limit, cost, now, inFlight));
  },

  sent(s, cost, now, mark, inFlightBefore) {
    if (s.spread) s.lastSentAt = now;
    if (s.rateBound !== null) {
      refill(s.rateBound, now, inFlightBefore);
      (s.rateBound.tokens as number) -= cost;
    }
    // A send that costs nothing here repeats the last mark: only sends that count are keyed by theirs.
    if (cost > 0) s.inFlightAtSend.add(mark, inFlightBefore);
    return s;
  },

  observe(s, o) {
    // The refused send is among `inFlightBefore`: the ledger foresaw room for it if that fits the limit.
    // A refusal that states room left in this window for the call is another limit's (GitHub's
    // secondary limits).
    const otherLimit = hadRoomFor(o.window, o.cost);
    const unforeseen =
      o.outcome === 'limited' &&
      !otherLimit &&
      s.limit !== null &&
      countedAt(s, o.at, o.inFlightBefore) <= s.limit;
    // A send that went on a return only the configured prior foresaw, refused: the user's figure,
    // not the model, misjudged the window's length. A send refused before any such return says
    // nothing of the length (the configured bucket may have sent it before the window governed).
    const refutesPrior = unforeseen && s.prior && o.sentAt >= s.priorBackAt;
    if (unforeseen) {
      if (!s.prior || refutesPrior) s.cautious = true;
      if (!refutesPrior) contradict(s, o.at);
    }
    const inFlightAtSend = o.cost > 0 ? s.inFlightAtSend.take(o.mark) : undefined;
    const remaining = o.window?.remaining ?? null;
    if (remaining !== null) sync(s, o, remaining, inFlightAtSend, refutesPrior);
    return s;
  },

  snapshot(s, now, inFlight): ModelSnapshot {
    if (s.limit === null) return { rate: null, burst: null, source: null, tokens: null };
    return {
      rate: s.windowMs === null ? null : (s.limit * 1000) / s.windowMs,
      burst: s.limit,
      source: 'window',
      tokens: s.limit - countedAt(s, now, inFlight),
    };
  },

  falsifiedAt(s) {
    return s.falsifiedAt;
  },
};

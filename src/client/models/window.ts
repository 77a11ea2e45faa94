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
 * window of `limit`), else each unit waits for its reset. A configured rate (`maxRate`) bounds the
 * model from above once the window's length is known: at most `maxRate × windowMs` units counted at
 * once, so the configured figure caps the pace without holding the server's word (a window's quota
 * at once) against it. A refusal that the ledger did not
 * foresee means the window was misjudged: from then on each unit waits for the longest window the
 * server's statements allow. Such a refusal, and a server that counts more than the ledger and the
 * sends in flight explain (units it should have given back), contradict the model; two or more
 * units back before a sliding log could give them back while the server still counts many (a
 * count that creeps back) rule it out. One unit is not enough: a send counted in one fixed window
 * and answered in the next is back "early" too.
 *
 * `sent` and `observe` update the state in place (the {@link ServerModel} contract); its ledger
 * is a value that each update replaces.
 */
import { EPSILON, hadRoomFor, type ModelSnapshot, type Observation, type ServerModel } from './model.js';
import { PendingSends } from './pending-sends.js';
import {
  backAtReaching,
  CLOCK_SLACK_MS,
  clampTo,
  dropDue,
  dropOldest,
  emptyLedger,
  insert,
  type Ledger,
  totalUnits,
  unitsAfter,
  unitsAfterMark,
} from './window-ledger.js';

/** State of the window model. */
export interface WindowModelState {
  /** Units per window: the stated limit, or the most ever seen left plus one. `null` until a reading. */
  limit: number | null;
  /** Window length, from the stated rate; `null` when unknown (units then wait for the reset). */
  windowMs: number | null;
  /** A refusal the ledger did not foresee: from then on, the longest window the statements allow is used. */
  cautious: boolean;
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
  /** A configured rate (units/s) that bounds each window's spending from above, or `null`. */
  maxRate: number | null;
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
 * configured rate, units/s) bounds what a window of known length may spend.
 */
export function newWindow(spread = false, maxRate: number | null = null): WindowModelState {
  return {
    limit: null,
    windowMs: null,
    cautious: false,
    falsifiedAt: null,
    ledger: emptyLedger(),
    foreign: 0,
    foreignBackAt: 0,
    unsure: 0,
    unverified: 0,
    inFlightAtSend: new PendingSends(),
    syncedMark: -1,
    maxRemainingSeen: -1,
    spread,
    maxRate,
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
  return inFlight + (s.foreignBackAt > t ? held(s) : 0) + unitsAfter(s.ledger, t);
}

/** Units held until `foreignBackAt`: foreign ones, and returns a reading may not have counted. */
const held = (s: WindowModelState) => s.foreign + s.unsure;

/** The window the statements allow: `limit / statedRate`, or (cautious) the stated window length. */
function windowLength(cautious: boolean, limit: number, o: Observation): number | null {
  const stated = o.window?.windowMs ?? null;
  if (cautious) return stated;
  if (o.statedRate === null || !(o.statedRate > 0)) return stated;
  const derived = (limit * 1000) / o.statedRate;
  return stated === null ? derived : Math.min(stated, derived);
}

function sync(
  s: WindowModelState,
  o: Observation,
  remaining: number,
  inFlightAtSend: number | undefined,
): void {
  const window = o.window!;
  s.maxRemainingSeen = Math.max(s.maxRemainingSeen, remaining);
  // An IETF quota is a rate statement (`q` per `w`), not the window's limit; other dialects state the limit.
  const limit = o.statedPolicy ? s.maxRemainingSeen + 1 : Math.max(window.quota ?? 0, s.maxRemainingSeen + 1);
  s.limit = limit;
  s.windowMs = windowLength(s.cautious, limit, o);
  const resetAt = window.resetInMs === null ? Number.POSITIVE_INFINITY : o.at + window.resetInMs;
  const dueAt = s.windowMs === null ? Number.NEGATIVE_INFINITY : o.sentAt + s.windowMs;
  const ownBackAt = Math.min(s.windowMs === null ? Number.POSITIVE_INFINITY : o.at + s.windowMs, resetAt);
  // Every unit counted now is back by the stated reset.
  const clamped = clampTo(s.ledger, resetAt);
  // A refusal adds nothing to the count (a server that counts it shows up as another client's units).
  const all =
    o.outcome === 'limited'
      ? clamped
      : insert(clamped, { backAt: ownBackAt, units: o.cost, mark: o.mark, dueAt }, slotOf(s.windowMs));
  // Units due within the clock slack may still be counted by a server whose clock runs a little behind.
  const due = dropDue(all, o.at);
  const { returned, justDue } = due;
  let ledger = due.ledger;
  if (!s.confirmed) s.unverified += returned;
  if (o.mark <= s.syncedMark) {
    s.ledger = ledger;
    return;
  }
  // The server counted this send and what reached it before: the sends made before it (in the
  // ledger, or still in flight) and perhaps some made after it that were answered first.
  const serverCount = limit - remaining;
  const after = unitsAfterMark(ledger, o.mark);
  const before = totalUnits(ledger) - after;
  const inFlightBefore = Math.max(0, o.inFlightBefore - o.cost);
  // Fewer counted than were sent before it, by more than the sends it may have overtaken (as many as
  // are in flight, or were when it left: answers overtake each other on the way back too): those
  // are back already (a fixed window's boundary passed).
  const back = before - serverCount - Math.max(inFlightBefore, inFlightAtSend ?? inFlightBefore);
  let early = 0;
  if (back > 0) {
    const dropped = dropOldest(ledger, back, o.at);
    ledger = dropped.ledger;
    early = dropped.early;
  }
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
  s.ledger = ledger;
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
  s.confirmed ||= agrees && (boundaryPassed || (early === 0 && agreed >= limit / 4 && outpacesCreep));
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
    if (s.confirmed || limit - inFlight - held(s) - totalUnits(s.ledger) >= cost - EPSILON) return 0;
    return inFlight <= EPSILON ? 0 : Number.POSITIVE_INFINITY;
  }
  // Walk the returns in time order until enough is back.
  const foreign = held(s) > 0 && s.foreignBackAt > seen ? { units: held(s), backAt: s.foreignBackAt } : null;
  const backAt = backAtReaching(s.ledger, seen, free, cost - EPSILON, foreign);
  if (backAt === null) return Number.POSITIVE_INFINITY;
  return Number.isFinite(backAt) ? Math.ceil(backAt - seen) : Infinity;
}

/** Units the model lets be counted at once: the window's limit, bounded by the configured rate over a known window. */
function spendable(s: WindowModelState, limit: number): number {
  return s.maxRate === null || s.windowMs === null ? limit : Math.min(limit, (s.maxRate * s.windowMs) / 1000);
}

/** True when the model enforces its configured rate itself (it knows the window's length). */
export function boundsConfiguredRate(s: WindowModelState): boolean {
  return s.maxRate !== null && s.windowMs !== null;
}

/** The window model. */
export const windowModel: ServerModel<WindowModelState> = {
  delay(s, cost, now, inFlight) {
    if (s.limit === null) return 0;
    const limit = spendable(s, s.limit);
    const spacing = s.spread && s.windowMs !== null ? s.lastSentAt + (s.windowMs * cost) / limit - now : 0;
    return Math.max(Math.ceil(spacing), spendDelay(s, limit, cost, now, inFlight));
  },

  sent(s, cost, now, mark, inFlightBefore) {
    if (s.spread) s.lastSentAt = now;
    // A send that costs nothing here repeats the last mark: only sends that count are keyed by theirs.
    if (cost > 0) s.inFlightAtSend.add(mark, inFlightBefore);
    return s;
  },

  observe(s, o) {
    // The refused send is among `inFlightBefore`: the ledger foresaw room for it if that fits the limit.
    // A refusal that states room left in this window for the call is another limit's (GitHub's
    // secondary limits).
    const otherLimit = hadRoomFor(o.window, o.cost);
    if (
      o.outcome === 'limited' &&
      !otherLimit &&
      s.limit !== null &&
      countedAt(s, o.at, o.inFlightBefore) <= s.limit
    ) {
      s.cautious = true;
      contradict(s, o.at);
    }
    const inFlightAtSend = o.cost > 0 ? s.inFlightAtSend.take(o.mark) : undefined;
    const remaining = o.window?.remaining ?? null;
    if (remaining !== null) sync(s, o, remaining, inFlightAtSend);
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

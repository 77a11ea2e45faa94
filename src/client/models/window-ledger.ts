/**
 * The window model's ledger: answered units the server still counts, each with the time it is
 * back by, ascending by that time. A value, like the model's state: an operation returns a new
 * ledger and never changes one that exists.
 *
 * Kept as an append-only log (parallel arrays, with running sums of units and marks) that each
 * ledger views a range of, so the common operations cost no copy: a new entry appends (or merges
 * into the newest, which each ledger holds itself, outside the log), returned entries leave the
 * front by moving the range's start, and sums over the range are differences of running sums.
 * A ledger never reads past its own range, so entries another ledger appended after it (two
 * states grown from one) are invisible to it; appending to a log that another ledger extended
 * first copies the range. Only an entry that is not the newest (rare: a reset stated earlier
 * than entries already due later) rebuilds the log.
 */
import { EPSILON } from './model.js';

/** Answered units still counted by the server, and when they are back. */
export interface Entry {
  readonly backAt: number;
  readonly units: number;
  /** The send's mark (cumulative units sent up to it). */
  readonly mark: number;
  /** The earliest a sliding log could give it back: its send plus the window (`-Infinity` when unknown). */
  readonly dueAt: number;
}

/** The shared log: entries by index, in parallel arrays. Indices below a ledger's `to` never change. */
class Log {
  readonly backAt: number[] = [];
  readonly units: number[] = [];
  readonly mark: number[] = [];
  readonly dueAt: number[] = [];
  /** `sum[i]`: units of the entries before `i` (one longer than the log). */
  readonly sum: number[] = [0];
  /** `maxMark[i]`: the highest mark of the entries up to and including `i`. */
  readonly maxMark: number[] = [];

  get length(): number {
    return this.backAt.length;
  }

  push(e: Entry): void {
    const i = this.backAt.length;
    this.backAt.push(e.backAt);
    this.units.push(e.units);
    this.mark.push(e.mark);
    this.dueAt.push(e.dueAt);
    this.sum.push((this.sum[i] as number) + e.units);
    this.maxMark.push(i === 0 ? e.mark : Math.max(this.maxMark[i - 1] as number, e.mark));
  }
}

/** A ledger: the range `[from, to)` of a log, less `headCut` units of its first entry, then `tail`. */
export interface Ledger {
  readonly log: Log;
  readonly from: number;
  readonly to: number;
  /** Units already taken from the log's entry `from` (an entry given back in part). */
  readonly headCut: number;
  /** The newest entry, which later entries of its slot merge into; `null` only when empty. */
  readonly tail: Entry | null;
}

/** Longest ledger kept: a window's limit of entries at most (reconciling drops the rest anyway). */
const MAX_LEDGER = 100_000;
/** A range that starts this far into its log (and past half of it) is copied to a new one. */
const COMPACT_FROM = 64;

/** An empty ledger. */
export function emptyLedger(): Ledger {
  return { log: new Log(), from: 0, to: 0, headCut: 0, tail: null };
}

/** The ledger holding `entries` (ascending by `backAt`). */
function ledgerOf(entries: readonly Entry[]): Ledger {
  const log = new Log();
  const last = entries.length - 1;
  for (let i = 0; i < last; i++) log.push(entries[i] as Entry);
  return { log, from: 0, to: log.length, headCut: 0, tail: last < 0 ? null : (entries[last] as Entry) };
}

/**
 * `l` with `tail` as its newest entry. Spelled out, not spread: an answer makes one or two of these,
 * and a spread copies by the source's shape, several times slower than a literal of a known one.
 */
function withTail(l: Ledger, tail: Entry | null): Ledger {
  return { log: l.log, from: l.from, to: l.to, headCut: l.headCut, tail };
}

/** `e`, back by `backAt` instead. */
function backBy(e: Entry, backAt: number): Entry {
  return { backAt, units: e.units, mark: e.mark, dueAt: e.dueAt };
}

/** Units of the log's entry `i` as the ledger sees it. */
function unitsAt(l: Ledger, i: number): number {
  return (l.log.units[i] as number) - (i === l.from ? l.headCut : 0);
}

/** The entries, oldest first. */
export function entriesOf(l: Ledger): Entry[] {
  const { log } = l;
  const entries: Entry[] = [];
  for (let i = l.from; i < l.to; i++)
    entries.push({
      backAt: log.backAt[i] as number,
      units: unitsAt(l, i),
      mark: log.mark[i] as number,
      dueAt: log.dueAt[i] as number,
    });
  if (l.tail) entries.push(l.tail);
  return entries;
}

/** Number of entries. */
function sizeOf(l: Ledger): number {
  return l.to - l.from + (l.tail ? 1 : 0);
}

/** The newest entry's `backAt` (the latest), or `undefined` when empty. */
export function lastBackAt(l: Ledger): number | undefined {
  return l.tail?.backAt;
}

/** Units of every entry. */
export function totalUnits(l: Ledger): number {
  const { sum } = l.log;
  return (sum[l.to] as number) - (sum[l.from] as number) - l.headCut + (l.tail ? l.tail.units : 0);
}

/** Index of the first log entry of the range due after `t` (`to` when none). */
function firstAfter(l: Ledger, t: number): number {
  const { backAt } = l.log;
  let lo = l.from;
  let hi = l.to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((backAt[mid] as number) > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Units of the entries not back by `t`. */
export function unitsAfter(l: Ledger, t: number): number {
  const i = firstAfter(l, t);
  const { sum } = l.log;
  let units = (sum[l.to] as number) - (sum[i] as number) - (i === l.from ? l.headCut : 0);
  if (l.tail && l.tail.backAt > t) units += l.tail.units;
  return units;
}

/** Units of the entries whose send came after `mark`. */
export function unitsAfterMark(l: Ledger, mark: number): number {
  const { log } = l;
  let units = l.tail && l.tail.mark > mark ? l.tail.units : 0;
  // Back from the newest: an entry whose running highest mark is `mark` or lower ends the search.
  for (let i = l.to - 1; i >= l.from && (log.maxMark[i] as number) > mark; i--)
    if ((log.mark[i] as number) > mark) units += unitsAt(l, i);
  return units;
}

/**
 * Walks the returns after `after` in time order, with `extra` (units held until a time) among
 * them after the entries due at the same time, adding each to `free`; returns the time at which
 * `free` first reaches `needed`, or `null` when it never does.
 */
export function backAtReaching(
  l: Ledger,
  after: number,
  free: number,
  needed: number,
  extra: { units: number; backAt: number } | null,
): number | null {
  const { log } = l;
  let pending = extra;
  const visit = (backAt: number, units: number): number | null => {
    if (pending !== null && pending.backAt < backAt) {
      free += pending.units;
      const at = pending.backAt;
      pending = null;
      if (free >= needed) return at;
    }
    free += units;
    return free >= needed ? backAt : null;
  };
  for (let i = firstAfter(l, after); i < l.to; i++) {
    const at = visit(log.backAt[i] as number, unitsAt(l, i));
    if (at !== null) return at;
  }
  if (l.tail && l.tail.backAt > after) {
    const at = visit(l.tail.backAt, l.tail.units);
    if (at !== null) return at;
  }
  if (pending !== null) {
    free += pending.units;
    if (free >= needed) return pending.backAt;
  }
  return null;
}

/** Every entry due after `resetAt` is back by it instead. */
export function clampTo(l: Ledger, resetAt: number): Ledger {
  const tail = l.tail;
  if (tail === null || tail.backAt <= resetAt) return l;
  // Usually only the newest is due after it (resets move forward): no copy.
  if (firstAfter(l, resetAt) === l.to) return withTail(l, backBy(tail, resetAt));
  return ledgerOf(entriesOf(l).map((e) => (e.backAt > resetAt ? backBy(e, resetAt) : e)));
}

/**
 * Adds `entry`, due at the end of its slot of `slotMs`: entries due in the same slot are one, so
 * the ledger stays short (a few hundred entries a window) however many calls go, and a slot's
 * units are back at its end, never earlier than their own.
 */
export function insert(l: Ledger, entry: Entry, slotMs: number): Ledger {
  const backAt = Math.ceil(entry.backAt / slotMs) * slotMs;
  const tail = l.tail;
  // The newest entry of the same slot takes it in: at the slot's end, or earlier where a stated
  // reset moved it, but never before the entry's own time. A reset that moved it before this
  // entry's time (each answer's reset, stated a window ahead, clamps the entry before it) moves it
  // on to this one's: its units are then counted up to a slot longer, never given back early, and
  // the ledger keeps one entry per slot rather than one per answer.
  if (tail !== null && tail.backAt <= backAt && tail.backAt > backAt - slotMs) {
    const merged = {
      backAt: Math.max(tail.backAt, entry.backAt),
      units: tail.units + entry.units,
      mark: Math.max(tail.mark, entry.mark),
      dueAt: Math.min(tail.dueAt, entry.dueAt),
    };
    return withTail(l, merged);
  }
  const slotted = backBy(entry, backAt);
  const kept = sizeOf(l) >= MAX_LEDGER ? dropFirst(l) : l;
  if (kept.tail === null) return withTail(kept, slotted);
  if (kept.tail.backAt > backAt) {
    // Not the newest: a new log, with the entry in its place (after those due at the same time).
    const entries = entriesOf(kept);
    let i = entries.length;
    while (i > 0 && (entries[i - 1] as Entry).backAt > backAt) i--;
    entries.splice(i, 0, slotted);
    return ledgerOf(entries);
  }
  const own = kept.log.length === kept.to ? kept : ledgerOf(entriesOf(kept));
  own.log.push(own.tail as Entry);
  return { log: own.log, from: own.from, to: own.to + 1, headCut: own.headCut, tail: slotted };
}

/** Without its oldest entry. */
function dropFirst(l: Ledger): Ledger {
  if (l.from < l.to) return startingAt(l, l.from + 1, 0);
  return withTail(l, null);
}

/** The range from `from` with `headCut` taken from its first entry; copied when it starts far into its log. */
function startingAt(l: Ledger, from: number, headCut: number): Ledger {
  const moved = { log: l.log, from, to: l.to, headCut, tail: l.tail };
  return from >= COMPACT_FROM && from > l.to - from ? compacted(moved) : moved;
}

/** The same entries in a log of their own, from index 0 (copied field by field: no entry objects). */
function compacted(l: Ledger): Ledger {
  const { log } = l;
  const copy = new Log();
  for (let i = l.from; i < l.to; i++) {
    const units = unitsAt(l, i);
    const j = copy.backAt.length;
    copy.backAt.push(log.backAt[i] as number);
    copy.units.push(units);
    copy.mark.push(log.mark[i] as number);
    copy.dueAt.push(log.dueAt[i] as number);
    copy.sum.push((copy.sum[j] as number) + units);
    const mark = log.mark[i] as number;
    copy.maxMark.push(j === 0 ? mark : Math.max(copy.maxMark[j - 1] as number, mark));
  }
  return { log: copy, from: 0, to: copy.backAt.length, headCut: 0, tail: l.tail };
}

/** Timer and clock slack when comparing a return with the earliest moment it could happen. */
export const CLOCK_SLACK_MS = 2;

/**
 * Drops the entries back by `at` (all at the front: the ledger is sorted). Says how many units
 * came back, and how many of them within the clock slack before `at` (a server whose clock runs a
 * little behind may still count those).
 */
export function dropDue(l: Ledger, at: number): { ledger: Ledger; returned: number; justDue: number } {
  const { log } = l;
  let returned = 0;
  let justDue = 0;
  let i = l.from;
  for (; i < l.to && (log.backAt[i] as number) <= at; i++) {
    const units = unitsAt(l, i);
    returned += units;
    if ((log.backAt[i] as number) > at - CLOCK_SLACK_MS) justDue += units;
  }
  if (i < l.to) return { ledger: i === l.from ? l : startingAt(l, i, 0), returned, justDue };
  const tail = l.tail;
  if (tail === null || tail.backAt > at)
    return { ledger: i === l.from ? l : startingAt(l, i, 0), returned, justDue };
  returned += tail.units;
  if (tail.backAt > at - CLOCK_SLACK_MS) justDue += tail.units;
  return { ledger: emptyLedger(), returned, justDue };
}

/**
 * Drops the oldest `units` (they are back already by `at`); says how many of them came back
 * before a sliding log could have given them back (their send plus the window).
 */
export function dropOldest(l: Ledger, units: number, at: number): { ledger: Ledger; early: number } {
  const { log } = l;
  let left = units;
  let early = 0;
  let i = l.from;
  let headCut = l.headCut;
  for (; i < l.to && left > EPSILON; i++) {
    const entryUnits = unitsAt(l, i);
    const taken = Math.min(entryUnits, left);
    if ((log.dueAt[i] as number) > at + CLOCK_SLACK_MS) early += taken;
    left -= taken;
    if (entryUnits > taken + EPSILON) {
      // Given back in part: it stays, with fewer units.
      headCut = (i === l.from ? l.headCut : 0) + taken;
      break;
    }
    headCut = 0;
  }
  if (i < l.to || left <= EPSILON || l.tail === null)
    return { ledger: i === l.from && headCut === l.headCut ? l : startingAt(l, i, headCut), early };
  const tail = l.tail;
  const taken = Math.min(tail.units, left);
  if (tail.dueAt > at + CLOCK_SLACK_MS) early += taken;
  const rest = tail.units > taken + EPSILON ? { ...tail, units: tail.units - taken } : null;
  return { ledger: withTail(emptyLedger(), rest), early };
}

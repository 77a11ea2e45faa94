/**
 * The window model's ledger: answered units the server still counts, each with the time it is
 * back by, ascending by that time. Its model owns it and updates it in place, as it does its
 * state: an answer changes it with no object made.
 *
 * Kept as parallel arrays with running sums of units and highest marks, so the common operations
 * cost no copy: a new entry appends (or merges into the newest, which is kept in fields of its own,
 * outside the arrays), returned entries leave the front by moving the start, and sums over the
 * entries are differences of running sums. The arrays are compacted once the start is far into
 * them. Only an entry that is not the newest (rare: a reset stated earlier than entries already
 * due later) rebuilds them.
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

/** What {@link Ledger.dropDue} gave back: one object, refilled by each call (read it at once). */
export interface Returned {
  /** Units back by the time asked. */
  returned: number;
  /** Of those, the units due within the clock slack before it. */
  justDue: number;
}

/** Longest ledger kept: a window's limit of entries at most (reconciling drops the rest anyway). */
const MAX_LEDGER = 100_000;
/** Arrays whose start is this far in (and past half of them) are compacted. */
const COMPACT_FROM = 64;

/** Timer and clock slack when comparing a return with the earliest moment it could happen. */
export const CLOCK_SLACK_MS = 2;

/** Answered units still counted, ascending by when they are back; updated in place. */
export class Ledger {
  // The older entries, from index `#from`: parallel arrays.
  #backAt: number[] = [];
  #units: number[] = [];
  #mark: number[] = [];
  #dueAt: number[] = [];
  /** `#sum[i]`: units of the entries before `i` (one longer than the arrays). */
  #sum: number[] = [0];
  /** `#maxMark[i]`: the highest mark of the entries up to and including `i`. */
  #maxMark: number[] = [];
  #from = 0;
  /** Units already taken from the entry at `#from` (an entry given back in part). */
  #headCut = 0;
  // The newest entry, which later entries of its slot merge into.
  #hasTail = false;
  #tailBackAt = 0;
  #tailUnits = 0;
  #tailMark = 0;
  #tailDueAt = 0;
  readonly #returned: Returned = { returned: 0, justDue: 0 };

  /** The ledger holding `entries` (ascending by `backAt`). */
  static of(entries: readonly Entry[]): Ledger {
    const ledger = new Ledger();
    ledger.#rebuild(entries);
    return ledger;
  }

  /** The entries, oldest first. */
  entries(): Entry[] {
    const entries: Entry[] = [];
    for (let i = this.#from; i < this.#backAt.length; i++)
      entries.push({
        backAt: this.#backAt[i] as number,
        units: this.#unitsAt(i),
        mark: this.#mark[i] as number,
        dueAt: this.#dueAt[i] as number,
      });
    if (this.#hasTail)
      entries.push({
        backAt: this.#tailBackAt,
        units: this.#tailUnits,
        mark: this.#tailMark,
        dueAt: this.#tailDueAt,
      });
    return entries;
  }

  /** Number of entries. */
  get size(): number {
    return this.#backAt.length - this.#from + (this.#hasTail ? 1 : 0);
  }

  /** Units of every entry. */
  totalUnits(): number {
    const sum = this.#sum;
    const counted = (sum[this.#backAt.length] as number) - (sum[this.#from] as number) - this.#headCut;
    return counted + (this.#hasTail ? this.#tailUnits : 0);
  }

  /** Units of the entries not back by `t`. */
  unitsAfter(t: number): number {
    const i = this.#firstAfter(t);
    const sum = this.#sum;
    const to = this.#backAt.length;
    let units = (sum[to] as number) - (sum[i] as number) - (i === this.#from ? this.#headCut : 0);
    if (this.#hasTail && this.#tailBackAt > t) units += this.#tailUnits;
    return units;
  }

  /** Units of the entries whose send came after `mark`. */
  unitsAfterMark(mark: number): number {
    let units = this.#hasTail && this.#tailMark > mark ? this.#tailUnits : 0;
    // Back from the newest: an entry whose running highest mark is `mark` or lower ends the search.
    for (let i = this.#backAt.length - 1; i >= this.#from && (this.#maxMark[i] as number) > mark; i--)
      if ((this.#mark[i] as number) > mark) units += this.#unitsAt(i);
    return units;
  }

  /**
   * Walks the returns after `after` in time order, with `extra` (units held until a time) among
   * them after the entries due at the same time, adding each to `free`; returns the time at which
   * `free` first reaches `needed`, or `null` when it never does.
   */
  backAtReaching(
    after: number,
    free: number,
    needed: number,
    extra: { units: number; backAt: number } | null,
  ): number | null {
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
    for (let i = this.#firstAfter(after); i < this.#backAt.length; i++) {
      const at = visit(this.#backAt[i] as number, this.#unitsAt(i));
      if (at !== null) return at;
    }
    if (this.#hasTail && this.#tailBackAt > after) {
      const at = visit(this.#tailBackAt, this.#tailUnits);
      if (at !== null) return at;
    }
    if (pending !== null) {
      free += pending.units;
      if (free >= needed) return pending.backAt;
    }
    return null;
  }

  /** Every entry due after `resetAt` is back by it instead. */
  clampTo(resetAt: number): void {
    if (!this.#hasTail || this.#tailBackAt <= resetAt) return;
    // Usually only the newest is due after it (resets move forward): no copy.
    if (this.#firstAfter(resetAt) === this.#backAt.length) {
      this.#tailBackAt = resetAt;
      return;
    }
    this.#rebuild(this.entries().map((e) => (e.backAt > resetAt ? { ...e, backAt: resetAt } : e)));
  }

  /**
   * Adds an entry back by `backAt`, due at the end of its slot of `slotMs`: entries due in the
   * same slot are one, so the ledger stays short (a few hundred entries a window) however many
   * calls go, and a slot's units are back at its end, never earlier than their own.
   */
  insert(backAt: number, units: number, mark: number, dueAt: number, slotMs: number): void {
    const slotEnd = Math.ceil(backAt / slotMs) * slotMs;
    // The newest entry of the same slot takes it in: at the slot's end, or earlier where a stated
    // reset moved it, but never before the entry's own time. A reset that moved it before this
    // entry's time (each answer's reset, stated a window ahead, clamps the entry before it) moves
    // it on to this one's: its units are then counted up to a slot longer, never given back early,
    // and the ledger keeps one entry per slot rather than one per answer.
    if (this.#hasTail && this.#tailBackAt <= slotEnd && this.#tailBackAt > slotEnd - slotMs) {
      this.#tailBackAt = Math.max(this.#tailBackAt, backAt);
      this.#tailUnits += units;
      this.#tailMark = Math.max(this.#tailMark, mark);
      this.#tailDueAt = Math.min(this.#tailDueAt, dueAt);
      return;
    }
    if (this.size >= MAX_LEDGER) this.#dropFirst();
    if (this.#hasTail && this.#tailBackAt > slotEnd) {
      // Not the newest: the arrays are rebuilt, with the entry in its place (after those due at the same time).
      const entries = this.entries();
      let i = entries.length;
      while (i > 0 && (entries[i - 1] as Entry).backAt > slotEnd) i--;
      entries.splice(i, 0, { backAt: slotEnd, units, mark, dueAt });
      this.#rebuild(entries);
      return;
    }
    if (this.#hasTail) this.#push(this.#tailBackAt, this.#tailUnits, this.#tailMark, this.#tailDueAt);
    this.#setTail(slotEnd, units, mark, dueAt);
  }

  /**
   * Drops the entries back by `at` (all at the front: the ledger is sorted). Says how many units
   * came back, and how many of them within the clock slack before `at` (a server whose clock runs
   * a little behind may still count those).
   */
  dropDue(at: number): Returned {
    let returned = 0;
    let justDue = 0;
    let i = this.#from;
    const to = this.#backAt.length;
    for (; i < to && (this.#backAt[i] as number) <= at; i++) {
      const units = this.#unitsAt(i);
      returned += units;
      if ((this.#backAt[i] as number) > at - CLOCK_SLACK_MS) justDue += units;
    }
    if (i === to && this.#hasTail && this.#tailBackAt <= at) {
      returned += this.#tailUnits;
      if (this.#tailBackAt > at - CLOCK_SLACK_MS) justDue += this.#tailUnits;
      this.#clear();
    } else if (i !== this.#from) this.#startAt(i, 0);
    const result = this.#returned;
    result.returned = returned;
    result.justDue = justDue;
    return result;
  }

  /**
   * Drops the oldest `units` (they are back already by `at`); says how many of them came back
   * before a sliding log could have given them back (their send plus the window).
   */
  dropOldest(units: number, at: number): number {
    let left = units;
    let early = 0;
    let i = this.#from;
    const to = this.#backAt.length;
    let headCut = this.#headCut;
    for (; i < to && left > EPSILON; i++) {
      const entryUnits = this.#unitsAt(i);
      const taken = Math.min(entryUnits, left);
      if ((this.#dueAt[i] as number) > at + CLOCK_SLACK_MS) early += taken;
      left -= taken;
      if (entryUnits > taken + EPSILON) {
        // Given back in part: it stays, with fewer units.
        headCut = (i === this.#from ? this.#headCut : 0) + taken;
        break;
      }
      headCut = 0;
    }
    if (i < to || left <= EPSILON || !this.#hasTail) {
      if (i !== this.#from || headCut !== this.#headCut) this.#startAt(i, headCut);
      return early;
    }
    const taken = Math.min(this.#tailUnits, left);
    if (this.#tailDueAt > at + CLOCK_SLACK_MS) early += taken;
    const rest = this.#tailUnits > taken + EPSILON ? this.#tailUnits - taken : 0;
    const tail = { backAt: this.#tailBackAt, mark: this.#tailMark, dueAt: this.#tailDueAt };
    this.#clear();
    if (rest > 0) this.#setTail(tail.backAt, rest, tail.mark, tail.dueAt);
    return early;
  }

  /** Units of the entry `i` as the ledger counts it. */
  #unitsAt(i: number): number {
    return (this.#units[i] as number) - (i === this.#from ? this.#headCut : 0);
  }

  /** Index of the first entry of the arrays due after `t` (their length when none). */
  #firstAfter(t: number): number {
    const backAt = this.#backAt;
    let lo = this.#from;
    let hi = backAt.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((backAt[mid] as number) > t) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  #push(backAt: number, units: number, mark: number, dueAt: number): void {
    const i = this.#backAt.length;
    this.#backAt.push(backAt);
    this.#units.push(units);
    this.#mark.push(mark);
    this.#dueAt.push(dueAt);
    this.#sum.push((this.#sum[i] as number) + units);
    this.#maxMark.push(i === 0 ? mark : Math.max(this.#maxMark[i - 1] as number, mark));
  }

  #setTail(backAt: number, units: number, mark: number, dueAt: number): void {
    this.#hasTail = true;
    this.#tailBackAt = backAt;
    this.#tailUnits = units;
    this.#tailMark = mark;
    this.#tailDueAt = dueAt;
  }

  /** Without its oldest entry. */
  #dropFirst(): void {
    if (this.#from < this.#backAt.length) this.#startAt(this.#from + 1, 0);
    else this.#hasTail = false;
  }

  /** Starts at the entry `from`, with `headCut` taken from it; compacted when it starts far in. */
  #startAt(from: number, headCut: number): void {
    this.#from = from;
    this.#headCut = headCut;
    const length = this.#backAt.length;
    if (from === length) {
      this.#clearArrays();
      return;
    }
    if (from >= COMPACT_FROM && from > length - from) {
      const tail = this.#hasTail;
      const entries = this.entries();
      if (tail) entries.pop();
      this.#clearArrays();
      for (const e of entries) this.#push(e.backAt, e.units, e.mark, e.dueAt);
    }
  }

  /** Holds `entries` (ascending by `backAt`) and nothing else. */
  #rebuild(entries: readonly Entry[]): void {
    this.#clear();
    const last = entries.length - 1;
    for (let i = 0; i < last; i++) {
      const e = entries[i] as Entry;
      this.#push(e.backAt, e.units, e.mark, e.dueAt);
    }
    if (last >= 0) {
      const e = entries[last] as Entry;
      this.#setTail(e.backAt, e.units, e.mark, e.dueAt);
    }
  }

  #clear(): void {
    this.#clearArrays();
    this.#hasTail = false;
  }

  #clearArrays(): void {
    // Setting an array's length is a call into the runtime, even when it changes nothing: the
    // arrays (parallel, `#sum` one longer) are truncated only when they hold entries. A model
    // whose every unit is back at each answer (a window far from its limit) clears an empty ledger.
    if (this.#backAt.length !== 0) {
      this.#backAt.length = 0;
      this.#units.length = 0;
      this.#mark.length = 0;
      this.#dueAt.length = 0;
      this.#sum.length = 1;
      this.#maxMark.length = 0;
    }
    this.#from = 0;
    this.#headCut = 0;
  }
}

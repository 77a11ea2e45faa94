import { describe, expect, it } from 'vitest';
import {
  backAtReaching,
  clampTo,
  dropDue,
  dropOldest,
  emptyLedger,
  entriesOf,
  insert,
  type Ledger,
  totalUnits,
  unitsAfter,
  unitsAfterMark,
} from '../../../src/client/models/window-ledger.js';

/** Entries of one unit each, sent with marks 1…n, due at the given times (1 ms slots). */
function ledgerOf(backAts: number[]): Ledger {
  let l = emptyLedger();
  backAts.forEach((backAt, i) => {
    l = insert(l, { backAt, units: 1, mark: i + 1, dueAt: backAt }, 1);
  });
  return l;
}

describe('window ledger', () => {
  it('merges an entry into the newest of its slot, keeps the others apart', () => {
    let l = insert(emptyLedger(), { backAt: 10.2, units: 1, mark: 1, dueAt: 5 }, 1);
    l = insert(l, { backAt: 10.7, units: 2, mark: 2, dueAt: 4 }, 1);
    l = insert(l, { backAt: 12, units: 1, mark: 3, dueAt: 6 }, 1);
    expect(entriesOf(l)).toEqual([
      { backAt: 11, units: 3, mark: 2, dueAt: 4 },
      { backAt: 12, units: 1, mark: 3, dueAt: 6 },
    ]);
    expect(totalUnits(l)).toBe(4);
  });

  it('counts the units not back by a time, and those sent after a mark', () => {
    const l = ledgerOf([10, 20, 30, 40]);
    expect([unitsAfter(l, 0), unitsAfter(l, 10), unitsAfter(l, 25), unitsAfter(l, 40)]).toEqual([4, 3, 2, 0]);
    expect([unitsAfterMark(l, 0), unitsAfterMark(l, 2), unitsAfterMark(l, 4)]).toEqual([4, 2, 0]);
  });

  it('drops what is due, and the oldest units in part', () => {
    const due = dropDue(ledgerOf([10, 20, 30]), 20);
    expect(due).toMatchObject({ returned: 2, justDue: 1 });
    expect(entriesOf(due.ledger).map((e) => e.backAt)).toEqual([30]);

    let l = emptyLedger();
    l = insert(l, { backAt: 10, units: 3, mark: 1, dueAt: 100 }, 1);
    l = insert(l, { backAt: 20, units: 3, mark: 2, dueAt: 0 }, 1);
    const dropped = dropOldest(l, 4, 50);
    // 3 units of the first entry (due at 100: back early) and 1 of the second (due at 0: in time).
    expect(dropped.early).toBe(3);
    expect(entriesOf(dropped.ledger)).toEqual([{ backAt: 20, units: 2, mark: 2, dueAt: 0 }]);
    expect(totalUnits(dropped.ledger)).toBe(2);
  });

  it('clamps what is due after a stated reset to it', () => {
    const l = clampTo(ledgerOf([10, 20, 30]), 15);
    expect(entriesOf(l).map((e) => e.backAt)).toEqual([10, 15, 15]);
    expect(clampTo(l, 50)).toBe(l);
  });

  it('keeps one entry per slot when each answer’s reset clamps the entry before it', () => {
    // Each answer states its reset one window (1,000 ms) ahead: it clamps the newest entry to it,
    // just before the next answer's own time. The next joins it (moved on to its later time, never
    // earlier than either's own) instead of opening an entry of its own.
    let l = emptyLedger();
    for (let i = 0; i < 40; i++) {
      const at = 100 + i * 0.1;
      l = clampTo(l, at + 1000);
      l = insert(l, { backAt: at + 1000, units: 1, mark: i + 1, dueAt: at + 1000 }, 4);
    }
    const entries = entriesOf(l);
    expect(entries.map((e) => [e.backAt, e.units])).toEqual([
      [1100, 1],
      [1103.9, 39],
    ]);
    expect(totalUnits(l)).toBe(40);
  });

  it('walks the returns in time order, another client’s units among them', () => {
    const l = ledgerOf([10, 20, 30]);
    expect(backAtReaching(l, 0, 0, 2, null)).toBe(20);
    expect(backAtReaching(l, 0, 0, 2, { units: 1, backAt: 15 })).toBe(15);
    expect(backAtReaching(l, 0, 0, 5, null)).toBeNull();
  });

  it('is a value: a ledger grown from an older one leaves the older one as it was', () => {
    const base = ledgerOf([10, 20]);
    const a = insert(base, { backAt: 30, units: 1, mark: 3, dueAt: 30 }, 1);
    const b = insert(base, { backAt: 40, units: 5, mark: 3, dueAt: 40 }, 1);
    const c = insert(a, { backAt: 50, units: 1, mark: 4, dueAt: 50 }, 1);
    expect(entriesOf(base).map((e) => e.backAt)).toEqual([10, 20]);
    expect(entriesOf(a).map((e) => e.backAt)).toEqual([10, 20, 30]);
    expect(entriesOf(b).map((e) => [e.backAt, e.units])).toEqual([
      [10, 1],
      [20, 1],
      [40, 5],
    ]);
    expect(entriesOf(c).map((e) => e.backAt)).toEqual([10, 20, 30, 50]);
    expect(totalUnits(b)).toBe(7);
  });

  it('stays exact over many appends and returns (its log is copied as it empties at the front)', () => {
    let l = emptyLedger();
    for (let i = 1; i <= 1000; i++) {
      l = insert(l, { backAt: i, units: 1, mark: i, dueAt: i }, 1);
      l = dropDue(l, i - 100).ledger;
    }
    expect(totalUnits(l)).toBe(100);
    expect(unitsAfter(l, 950)).toBe(50);
    expect(entriesOf(l)[0]).toEqual({ backAt: 901, units: 1, mark: 901, dueAt: 901 });
  });
});

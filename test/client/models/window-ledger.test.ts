import { describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/client/models/window-ledger.js';

/** Entries of one unit each, sent with marks 1…n, due at the given times (1 ms slots). */
function ledgerOf(backAts: number[]): Ledger {
  const l = new Ledger();
  backAts.forEach((backAt, i) => {
    l.insert(backAt, 1, i + 1, backAt, 1);
  });
  return l;
}

describe('window ledger', () => {
  it('merges an entry into the newest of its slot, keeps the others apart', () => {
    const l = new Ledger();
    l.insert(10.2, 1, 1, 5, 1);
    l.insert(10.7, 2, 2, 4, 1);
    l.insert(12, 1, 3, 6, 1);
    expect(l.entries()).toEqual([
      { backAt: 11, units: 3, mark: 2, dueAt: 4 },
      { backAt: 12, units: 1, mark: 3, dueAt: 6 },
    ]);
    expect(l.totalUnits()).toBe(4);
  });

  it('counts the units not back by a time, and those sent after a mark', () => {
    const l = ledgerOf([10, 20, 30, 40]);
    expect([l.unitsAfter(0), l.unitsAfter(10), l.unitsAfter(25), l.unitsAfter(40)]).toEqual([4, 3, 2, 0]);
    expect([l.unitsAfterMark(0), l.unitsAfterMark(2), l.unitsAfterMark(4)]).toEqual([4, 2, 0]);
  });

  it('drops what is due, and the oldest units in part', () => {
    const due = ledgerOf([10, 20, 30]);
    expect(due.dropDue(20)).toEqual({ returned: 2, justDue: 1 });
    expect(due.entries().map((e) => e.backAt)).toEqual([30]);
    expect(due.dropDue(30)).toEqual({ returned: 1, justDue: 1 });
    expect(due.size).toBe(0);

    const l = new Ledger();
    l.insert(10, 3, 1, 100, 1);
    l.insert(20, 3, 2, 0, 1);
    // 3 units of the first entry (due at 100: back early) and 1 of the second (due at 0: in time).
    expect(l.dropOldest(4, 50)).toBe(3);
    expect(l.entries()).toEqual([{ backAt: 20, units: 2, mark: 2, dueAt: 0 }]);
    expect(l.totalUnits()).toBe(2);
  });

  it('gives back part of an older entry, then counts the rest of it', () => {
    const l = ledgerOf([10, 20, 30]);
    l.insert(30, 4, 4, 30, 1); // the newest now holds 5 units
    expect(l.dropOldest(1.5, 50)).toBe(0);
    expect(l.totalUnits()).toBeCloseTo(5.5);
    expect(l.unitsAfter(15)).toBeCloseTo(5.5);
    expect(l.unitsAfter(25)).toBe(5);
    expect(l.entries()[0]).toEqual({ backAt: 20, units: 0.5, mark: 2, dueAt: 20 });
  });

  it('clamps what is due after a stated reset to it', () => {
    const l = ledgerOf([10, 20, 30]);
    l.clampTo(15);
    expect(l.entries().map((e) => e.backAt)).toEqual([10, 15, 15]);
    l.clampTo(50);
    expect(l.entries().map((e) => e.backAt)).toEqual([10, 15, 15]);
  });

  it('keeps one entry per slot when each answer’s reset clamps the entry before it', () => {
    // Each answer states its reset one window (1,000 ms) ahead: it clamps the newest entry to it,
    // just before the next answer's own time. The next joins it (moved on to its later time, never
    // earlier than either's own) instead of opening an entry of its own.
    const l = new Ledger();
    for (let i = 0; i < 40; i++) {
      const at = 100 + i * 0.1;
      l.clampTo(at + 1000);
      l.insert(at + 1000, 1, i + 1, at + 1000, 4);
    }
    expect(l.entries().map((e) => [e.backAt, e.units])).toEqual([
      [1100, 1],
      [1103.9, 39],
    ]);
    expect(l.totalUnits()).toBe(40);
  });

  it('places an entry due before the newest among the older ones', () => {
    const l = ledgerOf([10, 20, 30]);
    l.insert(15, 2, 4, 15, 1);
    expect(l.entries().map((e) => [e.backAt, e.units])).toEqual([
      [10, 1],
      [15, 2],
      [20, 1],
      [30, 1],
    ]);
    expect(l.unitsAfterMark(3)).toBe(2);
  });

  it('walks the returns in time order, another client’s units among them', () => {
    const l = ledgerOf([10, 20, 30]);
    expect(l.backAtReaching(0, 0, 2, null)).toBe(20);
    expect(l.backAtReaching(0, 0, 2, { units: 1, backAt: 15 })).toBe(15);
    expect(l.backAtReaching(0, 0, 5, null)).toBeNull();
  });

  it('stays exact over many appends and returns (its arrays are compacted as they empty at the front)', () => {
    const l = new Ledger();
    for (let i = 1; i <= 1000; i++) {
      l.insert(i, 1, i, i, 1);
      l.dropDue(i - 100);
    }
    expect(l.totalUnits()).toBe(100);
    expect(l.unitsAfter(950)).toBe(50);
    expect(l.unitsAfterMark(990)).toBe(10);
    expect(l.entries()[0]).toEqual({ backAt: 901, units: 1, mark: 901, dueAt: 901 });
  });
});

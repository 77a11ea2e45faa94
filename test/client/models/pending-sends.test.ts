import { describe, expect, it } from 'vitest';
import { PendingSends } from '../../../src/client/models/pending-sends.js';

const contents = (p: PendingSends) =>
  Array.from({ length: p.size }, (_, i) => [p.markAt(i), p.valueAt(i)] as const);

describe('PendingSends', () => {
  it('takes answers in send order, out of order, and unknown marks', () => {
    const p = new PendingSends();
    for (let mark = 1; mark <= 4; mark++) p.add(mark, mark * 10);
    expect(p.take(1)).toBe(10);
    expect(p.take(3)).toBe(30); // overtook 2
    expect(p.take(9)).toBeUndefined();
    expect(contents(p)).toEqual([
      [2, 20],
      [4, 40],
    ]);
    expect(p.take(2)).toBe(20);
    expect(p.take(4)).toBe(40);
    expect(p.size).toBe(0);
    expect(p.take(4)).toBeUndefined();
  });

  it('keeps its entries in order across many answers while others stay in flight', () => {
    const p = new PendingSends();
    let next = 1;
    for (; next <= 32; next++) p.add(next, next);
    // 1,000 answers taken from the front while 32 stay unanswered: the oldest always goes first.
    for (let answered = 1; answered <= 1000; answered++, next++) {
      expect(p.take(answered)).toBe(answered);
      p.add(next, next);
    }
    expect(p.size).toBe(32);
    expect(contents(p)).toEqual(Array.from({ length: 32 }, (_, i) => [1001 + i, 1001 + i]));
  });
});

import fc from 'fast-check';
import type { BareItem, List } from 'structured-headers';
import { parseList, serializeList, Token } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { fastParseList, safeParseDictionary, safeParseList } from '../../src/signals/structured.js';

/** What the package says: its List, or `'error'`. */
function reference(text: string): List | 'error' {
  try {
    return parseList(text);
  } catch {
    return 'error';
  }
}

describe('the fast List path agrees with structured-headers', () => {
  it.each([
    '"default";r=50;t=30',
    '"burst";q=100;w=60, "daily";q=1000;w=86400;qu="requests"',
    '  "a" ,\t"b"  ',
    '"a";r=-0',
    '"a"; r=1',
    '"es\\"c\\\\ape";pk="x\\"y"',
    '"a";flag;r=1;flag',
    '',
    '   ',
  ])('accepts %j as the package reads it', (text) => {
    expect(fastParseList(text)).toEqual(parseList(text));
  });

  it.each([
    '"a";r=5.5',
    '"a";r=1234567890123456',
    '"a";pk=:AA==:',
    '"a";t=tok',
    '"a";r=-',
    'a;r=1',
    '("a");r=1',
    '"a",',
    '"a" "b"',
    '"a";R=1',
    '"é"',
    '"a\tb"',
    '\t"a"',
    '"a";r=1x',
  ])('steps aside on %j', (text) => {
    expect(fastParseList(text)).toBeUndefined();
  });

  it('agrees on serialized lists of String items', () => {
    const key = fc.stringMatching(/^[a-z*][a-z0-9_.*-]{0,4}$/);
    const bare: fc.Arbitrary<BareItem> = fc.oneof(
      fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }),
      fc.string({ unit: 'binary-ascii', maxLength: 8 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
      fc.constant(true),
      fc.constant(new Token('tok')),
      fc.constant(1.5),
    );
    const item = fc.tuple(
      fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
      fc.array(fc.tuple(key, bare), { maxLength: 4 }).map((pairs) => new Map(pairs)),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 4 }), (list) => {
        const text = serializeList(list);
        const fast = fastParseList(text);
        if (fast !== undefined) expect(fast).toEqual(parseList(text));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees on junk: never accepts what the package refuses, never differs', () => {
    const junk = fc.string({ unit: fc.constantFrom(...'"ab;=,1-. \t\\:()?*'.split('')), maxLength: 30 });
    fc.assert(
      fc.property(junk, (text) => {
        const fast = fastParseList(text);
        if (fast !== undefined) expect(fast).toEqual(reference(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('wraps the package: a syntax error is null, never a throw', () => {
    expect(safeParseList('"a";r=1,')).toBeNull();
    expect(safeParseList('a=(')).toBeNull();
    expect(safeParseDictionary('"a"')).toBeNull();
    expect(safeParseDictionary('limit=1')?.get('limit')?.[0]).toBe(1);
    expect(safeParseList('"a";r=1.5')).toEqual(parseList('"a";r=1.5'));
  });
});

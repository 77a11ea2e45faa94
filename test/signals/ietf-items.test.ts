import fc from 'fast-check';
import type { BareItem } from 'structured-headers';
import { serializeList, Token } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { ietfItems, packageIetfItems, scanIetfItems } from '../../src/signals/ietf-items.js';
import { scanReadsAsThePackage } from './helpers.js';

/** Every IETF shape the other tests and the reference server send: the scan reads each itself. */
const COMMON = [
  '"default";r=50;t=30',
  '"default";q=100;w=60',
  '"default";r=0;t=2',
  '"default";q=1000000000;w=1',
  '"default";r=999999999;t=1',
  '"a";q=10',
  '"a";r=5',
  '"a";r=0;t=5',
  '"a";q=10, "b";q=20',
  '"a";q=10;w=1, "b";q=20;w=60',
  '"burst";q=100;w=60, "daily";q=1000;w=86400',
  '"burst";q=100;w=60, "daily";q=1000;w=86400;qu="requests"',
  '"daily";r=900;t=3600, "burst";r=50;t=30',
  '"burst";r=0;t=1, "daily";r=0;t=3600',
  '"in";q=100;qu="tokens", "out";q=50;qu="tokens"',
  '"in";r=40, "out";r=20;t=3',
  '"min";q=100;w=60, "day";q=5000;w=86400, "tok";q=1000;w=60;qu="tokens"',
  '"min";r=40;t=30, "day";r=10;t=7200, "tok";r=0;t=45',
  '"second";q=1000;w=1, "minute";q=300;w=60',
  '"second";r=999;t=1, "minute";r=299;t=30',
  // Items the draft's rules drop, though the List is valid: the scan reads them, the reader drops them.
  '"a";q=-1, "b";q=6',
  '"a";q=1;w=-60, "b";q=6',
  '"a";r, "b";r=6',
  '"a";r="5", "b";r=6',
  '"a";r=-1, "b";r=6',
  '"a";r=1;t=-1, "b";r=6',
  '"a";t=1, "b";r=6',
  '"a";w=60, "b";q=6',
  '"a";r=1, "a";r=9',
  '"a";r=-0',
  // Unknown parameters, repeated ones (the last counts), escapes, whitespace.
  '"a";q=10;foo="x";z',
  '"a";r=5;t=1;comment="hi";flag',
  '"a";flag;r=1;flag',
  '"a";r=1;r=7',
  '"a"; r=1',
  '  "a" ,\t"b"  ',
  '"es\\"c\\\\ape";pk="x\\"y"',
  '"a";r=999999999999999',
  '',
  '   ',
];

/** What the scan leaves to the package: other RFC 9651 types, and every syntax error. */
const LEFT_TO_THE_PACKAGE = [
  // valid Lists in shapes the scan does not read
  '"a";r=1.5, "b";r=6',
  '"a";r=1;t=0.5, "b";r=6',
  '"a";r=5.5',
  '"a";r=5.0',
  '"a";q=1;w=sixty, "b";q=6',
  '"a";t=tok',
  '"tok";q=1000;w=60;qu="tokens";pk=:dXNlcjE=:',
  '"tok";r=10;t=5;pk=:dXNlcjE=:',
  '"a";r=?1',
  '"a";r=@1700000000',
  '"a";r=%"x"',
  'a;r=5, "b";r=6',
  '7;r=5, "b";r=6',
  'default;r=50;t=30',
  '("a" "b");r=1, "c";r=2',
  '("a");r=1',
  '10, 10;w=1, 50;w=60',
  '"a";R=1',
  '\t"a"',
  // syntax errors: the package refuses them, and the whole field is dropped
  '"a";r=5,',
  '"a";r=1, ',
  '"a";q=10;w=',
  '"a;q=10',
  '"a";r=-',
  '"a";r=1x',
  '"a" "b"',
  '"a";r=1234567890123456',
  '"é"',
  '"a\tb"',
  '"a\\b"',
  '"a";=1',
  '"a";;r=1',
  '"a",,"b"',
  ',"a"',
  '"a";r=1;',
  '"a";r=--1',
];

describe('the IETF scan reads what structured-headers reads', () => {
  scanReadsAsThePackage(
    { scan: scanIetfItems, package: packageIetfItems, read: ietfItems },
    COMMON,
    LEFT_TO_THE_PACKAGE,
  );

  it('keeps the package’s verdicts on the shapes it leaves: a syntax error is null, other types are kept', () => {
    expect(ietfItems('"a";r=5,')).toBeNull();
    expect(ietfItems('"a;q=10')).toBeNull();
    expect(ietfItems('"a";r=1.5')?.[0]?.remaining).toBe(1.5);
    expect(ietfItems('a;r=5, "b";r=6')?.map((item) => item.name)).toEqual(['b']);
    expect(ietfItems('"a";r=1;t=tok')?.[0]?.reset).toBeInstanceOf(Token);
  });

  it('picks out the drafts’ parameters, the last of each, and the first item of each name', () => {
    expect(scanIetfItems('"a";q=1;w=2;qu="tokens";pk="k";r=3;t=4;x=5, "a";r=9')).toEqual([
      { name: 'a', quota: 1, window: 2, quotaUnit: 'tokens', partitionKey: 'k', remaining: 3, reset: 4 },
    ]);
    expect(scanIetfItems('"a";r=1;r=7')?.[0]?.remaining).toBe(7);
  });

  it('treats a value too long for a rate-limit field as unparsable', () => {
    expect(ietfItems(`"${'p'.repeat(5000)}";r=0`)).toBeNull();
  });

  it('agrees on serialized lists of String items', () => {
    const key = fc.constantFrom('q', 'w', 'qu', 'pk', 'r', 't', 'x', 'a*b');
    const bare: fc.Arbitrary<BareItem> = fc.oneof(
      fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }),
      fc.string({ unit: 'binary-ascii', maxLength: 8 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
      fc.constant(true),
      fc.constant(new Token('tok')),
      fc.constant(1.5),
    );
    const item = fc.tuple(
      fc.constantFrom('a', 'b', 'default', 'x"y', 'z\\'),
      fc.array(fc.tuple(key, bare), { maxLength: 5 }).map((pairs) => new Map(pairs)),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 4 }), (list) => {
        const text = serializeList(list);
        const scanned = scanIetfItems(text);
        if (scanned !== undefined) expect(scanned).toEqual(packageIetfItems(text));
        expect(ietfItems(text)).toEqual(packageIetfItems(text));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees on junk: never accepts what the package refuses, never differs', () => {
    const junk = fc.string({ unit: fc.constantFrom(...'"ab;=,1-. \t\\:()?*qrtw'.split('')), maxLength: 30 });
    fc.assert(
      fc.property(junk, (text) => {
        const scanned = scanIetfItems(text);
        if (scanned !== undefined) expect(scanned).toEqual(packageIetfItems(text));
      }),
      { numRuns: 3_000 },
    );
  });
});

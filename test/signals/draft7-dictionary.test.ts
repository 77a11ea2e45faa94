import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draft7Numbers, packageDraft7, scanDraft7 } from '../../src/signals/draft7-dictionary.js';
import { scanReadsAsThePackage } from './helpers.js';

/** The draft-07 shapes the other tests and the reference server send: the scan reads each itself. */
const COMMON = [
  'limit=100, remaining=50, reset=5',
  'limit=10, remaining=1, reset=1',
  'limit=1000000000, remaining=999999999, reset=1',
  'limit=10, remaining=-3',
  'limit=-10, remaining=3, reset=2',
  'remaining=0',
  'reset=0, limit=5',
  'limit=1, limit=2',
  'limit=1,remaining=2',
  'limit=1 ,\tremaining=2',
  '  limit=1',
  'other=7, limit=1',
  'limit=-0',
  'limit=999999999999999',
  '',
];

/** What the scan leaves to the package: other types, parameters, and every syntax error. */
const LEFT_TO_THE_PACKAGE = [
  'limit="100", remaining=?1',
  'limit=100.5, remaining=50, reset=0.25',
  'limit=10.0',
  'limit, remaining=1',
  'limit=10;w=60, remaining=1',
  'limit=(1 2), remaining=1',
  'limit=tok',
  'limit=:AAE=:',
  'limit=@1700000000',
  'limit=100, remaining=',
  'limit=100,',
  'limit=1 remaining=2',
  'Limit=1',
  '"limit"=1',
  'limit=1234567890123456',
  'limit=--1',
  '\tlimit=1',
  '100;w=60',
];

describe('the draft-07 scan reads what structured-headers reads', () => {
  scanReadsAsThePackage(
    { scan: scanDraft7, package: packageDraft7, read: draft7Numbers },
    COMMON,
    LEFT_TO_THE_PACKAGE,
  );

  it('keeps the package’s verdicts: a syntax error reads nothing, a Decimal is a number, a String is not', () => {
    expect(draft7Numbers('limit=100, remaining=')).toEqual({ limit: null, remaining: null, reset: null });
    expect(draft7Numbers('limit=100.5, reset=0.25')).toEqual({ limit: 100.5, remaining: null, reset: 0.25 });
    expect(draft7Numbers('limit="100", remaining=2')).toEqual({ limit: null, remaining: 2, reset: null });
    expect(draft7Numbers(null)).toEqual({ limit: null, remaining: null, reset: null });
    expect(draft7Numbers(`limit=1, x="${'p'.repeat(5000)}"`)).toEqual({
      limit: null,
      remaining: null,
      reset: null,
    });
  });

  it('agrees on junk: never accepts what the package refuses, never differs', () => {
    const part = fc.constantFrom(
      'limit',
      'remaining',
      'reset',
      'x',
      '=',
      ',',
      ' ',
      '\t',
      '1',
      '-',
      '.',
      ';',
      '"',
      '?',
      '(',
      ')',
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 14 }), (parts) => {
        const text = parts.join('');
        const scanned = scanDraft7(text);
        if (scanned !== undefined) expect(scanned).toEqual(packageDraft7(text));
      }),
      { numRuns: 3_000 },
    );
  });
});

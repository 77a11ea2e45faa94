import { parseList } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { FieldScan, safeParseDictionary, safeParseList } from '../../src/signals/structured.js';

describe('structured fields', () => {
  it('wraps the package: a syntax error is null, never a throw', () => {
    expect(safeParseList('"a";r=1,')).toBeNull();
    expect(safeParseList('a=(')).toBeNull();
    expect(safeParseDictionary('"a"')).toBeNull();
    expect(safeParseDictionary('limit=1')?.get('limit')?.[0]).toBe(1);
    expect(safeParseList('"a";r=1.5')).toEqual(parseList('"a";r=1.5'));
  });

  it('scans the pieces one at a time, and steps aside on what it does not read', () => {
    const scan = new FieldScan('  "a";k=-12, "b"');
    expect([scan.string(), scan.parameter(), scan.key(), scan.value(), scan.nextMember()]).toEqual([
      'a',
      true,
      'k',
      -12,
      true,
    ]);
    expect([scan.string(), scan.parameter(), scan.nextMember(), scan.atEnd]).toEqual([
      'b',
      false,
      false,
      true,
    ]);
    expect(new FieldScan('5.5').integer()).toBeUndefined();
    expect(new FieldScan('1234567890123456').integer()).toBeUndefined();
    expect(new FieldScan('"a\\b"').string()).toBeUndefined();
    expect(new FieldScan('K').key()).toBeUndefined();
    const trailing = new FieldScan('1, ');
    trailing.integer();
    expect(trailing.nextMember()).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { withSingleContentLength } from '../../src/undici/content-length.js';

const opts = (headers: unknown) => ({ origin: 'http://x', path: '/', method: 'POST', headers }) as never;

describe('withSingleContentLength', () => {
  it.each([
    ['3, 3', '3'],
    ['12,12,12', '12'],
    [' 7 , 7 ', '7'],
  ])('collapses a list of one repeated length: %j → %j', (value, single) => {
    const out = withSingleContentLength(opts({ 'content-length': value, accept: '*/*' }));
    expect(out.headers).toEqual({ 'content-length': single, accept: '*/*' });
  });

  it.each([['3'], ['3, 4'], ['3,'], ['abc, abc']])('leaves %j for undici to judge', (value) => {
    const input = opts({ 'content-length': value });
    expect(withSingleContentLength(input)).toBe(input);
  });

  it('leaves other header shapes alone', () => {
    for (const headers of [
      null,
      undefined,
      ['content-length', '3, 3'],
      new Map([['content-length', '3, 3']]),
    ]) {
      const input = opts(headers);
      expect(withSingleContentLength(input)).toBe(input);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { normalizeCost, settledCost } from '../../src/client/cost.js';
import { InvalidCostError } from '../../src/errors.js';

describe('normalizeCost', () => {
  it.each([
    [1, undefined, { requests: 1 }],
    [2.5, 10, { requests: 2.5 }],
    [{ tokens: 430 }, undefined, { requests: 1, tokens: 430 }],
    [{ requests: 2, tokens: 430 }, 5, { requests: 2, tokens: 430 }],
    [{ tokens: undefined }, undefined, { requests: 1 }],
    [
      { 'input-tokens': 300, 'output-tokens': 100 },
      undefined,
      { requests: 1, 'input-tokens': 300, 'output-tokens': 100 },
    ],
  ])('%j (burst %s) → %j', (cost, burst, expected) => {
    expect(normalizeCost(cost, burst)).toEqual(expected);
  });

  it.each([
    [0, undefined, 'requests'],
    [Number.NaN, undefined, 'requests'],
    ['1', undefined, 'requests'],
    [null, undefined, 'requests'],
    [11, 10, 'requests'],
    [{ requests: 11 }, 10, 'requests'],
    [{ tokens: -5 }, undefined, 'tokens'],
    [{ tokens: Number.POSITIVE_INFINITY }, undefined, 'tokens'],
  ])('%j (burst %s) is an InvalidCostError for %s', (cost, burst, unit) => {
    const error = (() => {
      try {
        normalizeCost(cost, burst);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidCostError);
    expect(error).toMatchObject({ code: 'HEADWAY_INVALID_COST', unit });
  });

  it('names the unit in the message of a cost by unit', () => {
    expect(() => normalizeCost({ tokens: 0 }, undefined)).toThrow(
      'Expected `cost.tokens` to be a positive finite number, got `0`',
    );
  });
});

describe('settledCost', () => {
  it.each([
    [{ tokens: 412 }, { tokens: 412 }],
    [3, { requests: 3 }],
    [{ tokens: 0, requests: 1 }, { requests: 1 }],
    [{ tokens: 'many' }, undefined],
    [undefined, undefined],
    [null, undefined],
    [-1, undefined],
  ])('%j → %j (malformed settles nothing)', (cost, expected) => {
    expect(settledCost(cost)).toEqual(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { parseHttpDate, utcMs } from '../../src/signals/http-date.js';
import { AT } from './helpers.js';

describe('HTTP-date calendar checks', () => {
  it.each([
    [2024, 2, 29, Date.UTC(2024, 1, 29)],
    [2000, 2, 29, Date.UTC(2000, 1, 29)],
    [1900, 2, 29, null],
    [2025, 2, 29, null],
    [2025, 4, 31, null],
    [2025, 12, 31, Date.UTC(2025, 11, 31)],
    [2025, 13, 1, null],
    [2025, 0, 1, null],
    [2025, 1, 0, null],
    [50, 1, 1, -60_589_296_000_000], // year 50, not 1950
    [0, 1, 1, -62_167_219_200_000],
  ])('%d-%d-%d → %s', (year, month, day, ms) => {
    expect(utcMs(year, month, day, 0, 0, 0)).toBe(ms);
  });

  it('reads the year 0050 as itself', () => {
    expect(parseHttpDate('Sat, 01 Jan 0050 00:00:00 GMT', AT)).toBe(-60_589_296_000_000);
  });
});

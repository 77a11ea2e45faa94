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

describe('the IMF-fixdate fast path is as strict as the grammar', () => {
  const GRAMMAR =
    /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
  const MONTHS = 'JanFebMarAprMayJunJulAugSepOctNovDec';
  /** The grammar and Date.UTC, checked by a round trip through toUTCString. */
  function reference(text: string): number | null {
    const m = GRAMMAR.exec(text);
    if (!m) return null;
    const date = new Date(0);
    date.setUTCFullYear(+m[4]!, MONTHS.indexOf(m[3]!) / 3, +m[2]!); // not Date.UTC: years 0–99 are years 0–99
    const ms = date.setUTCHours(+m[5]!, +m[6]!, +m[7]!, 0);
    const back = new Date(ms).toUTCString().slice(5, 25);
    return back === text.slice(5, 25) || m[7] === '60' ? ms : null;
  }

  it('agrees with the grammar on every one-character mutation of a valid date', () => {
    const valid = 'Wed, 01 Jan 2025 00:01:00 GMT';
    const chars = ' ,:0123456789WedJanGMTXx\t';
    let checked = 0;
    for (let at = 0; at < valid.length; at++) {
      for (const c of chars) {
        const text = valid.slice(0, at) + c + valid.slice(at + 1);
        // The grammar does not check the day name against the date: neither does the parser.
        expect(parseHttpDate(text, AT), text).toBe(reference(text));
        checked++;
      }
    }
    expect(checked).toBe(valid.length * chars.length);
  });
});

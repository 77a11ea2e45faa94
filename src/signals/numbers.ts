/**
 * Strict numbers and times as rate-limit headers write them: decimal numbers, Go durations
 * (OpenAI), RFC 3339 timestamps (Anthropic), and resets whose meaning is unknown (rule 6).
 *
 * Every parser checks the exact syntax first (an anchored regular expression, or a scan over the
 * characters for counters) and converts only the digits it captured, so `Number('0x10')`,
 * `Number('1e3')`, `Number('')` and friends never decide anything. No expression has nested
 * quantifiers: linear time on any input.
 */
import type { TimeBase } from './clock-skew.js';
import { delayUntil, LONGEST_DELAY_MS } from './clock-skew.js';
import { parseHttpDate, utcMs } from './http-date.js';

/**
 * A counter (rule 9): `-?\d+(\.\d+)?`, floored. May be negative; the caller clamps. One scan
 * over the characters, no regular expression: counters are read on every response.
 */
export function parseCount(text: string): number | null {
  const end = text.length;
  let pos = text.charCodeAt(0) === 0x2d /* - */ ? 1 : 0;
  const negative = pos === 1;
  const digitsStart = pos;
  let whole = 0;
  for (let c = text.charCodeAt(pos); c >= 0x30 && c <= 0x39; c = text.charCodeAt(++pos)) {
    whole = whole * 10 + (c - 0x30);
  }
  if (pos === digitsStart || pos - digitsStart > 20) return null;
  let fraction = false; // a non-zero digit after the point
  if (pos < end) {
    if (text.charCodeAt(pos) !== 0x2e /* . */) return null;
    const fractionStart = ++pos;
    for (let c = text.charCodeAt(pos); c >= 0x30 && c <= 0x39; c = text.charCodeAt(++pos)) {
      if (c !== 0x30) fraction = true;
    }
    if (pos === fractionStart || pos - fractionStart > 20 || pos < end) return null;
  }
  const floored = negative ? -whole - (fraction ? 1 : 0) + 0 : whole; // + 0 turns -0 into 0
  return Number.isSafeInteger(floored) ? floored : null;
}

/**
 * Milliseconds in a fraction of a second written as digits after the point, rounded up: `'5'` →
 * 500, `'0001'` → 1. Exact: `1.1 * 1000` is `1100.0000000000002` in floating point, this is 100.
 */
export function fractionToMs(digits: string): number {
  if (digits.length === 0) return 0;
  const ms = +digits.slice(0, 3).padEnd(3, '0');
  for (let i = 3; i < digits.length; i++) if (digits.charCodeAt(i) !== 0x30) return ms + 1;
  return ms;
}

/** Whole and fractional seconds (digit strings) → ms rounded up, at most {@link LONGEST_DELAY_MS}. */
export function secondsToMs(whole: string, fraction = ''): number {
  return Math.min(LONGEST_DELAY_MS, +whole * 1000 + fractionToMs(fraction));
}

const GO_UNIT_NS: Record<string, number> = {
  h: 3_600_000_000_000,
  m: 60_000_000_000,
  s: 1_000_000_000,
  ms: 1_000_000,
  us: 1_000,
  µs: 1_000, // U+00B5 micro sign, as Go prints it
  μs: 1_000, // U+03BC Greek mu, as Go also accepts
  ns: 1,
};

/** One `<number><unit>` of a Go duration; `ms` is tried before `m`. Sticky: matches at `lastIndex`. */
const GO_PART = /(\d{1,20})(?:\.(\d{1,20}))?(h|ms|m|s|us|µs|μs|ns)/y;

/**
 * A Go `time.Duration` string as OpenAI writes resets (`6m0s`, `1m30.5s`, `20ms`, `1h2m`,
 * `0.5s`) → ms, rounded up, at most {@link LONGEST_DELAY_MS}. Unsigned only; a bare number is not
 * a duration here.
 */
export function parseGoDuration(text: string): number | null {
  if (text.length === 0 || text.length > 100) return null;
  GO_PART.lastIndex = 0;
  let ns = 0;
  while (GO_PART.lastIndex < text.length) {
    const at = GO_PART.lastIndex;
    const m = GO_PART.exec(text);
    if (!m || m.index !== at) return null;
    const scale = GO_UNIT_NS[m[3]!]!;
    ns += +m[1]! * scale + (m[2] === undefined ? 0 : +`0.${m[2]}` * scale);
  }
  const ms = Math.ceil(Math.round(ns) / 1_000_000);
  return Number.isFinite(ms) ? Math.min(LONGEST_DELAY_MS, ms) : null;
}

/** RFC 3339 `date-time`: `2024-04-10T18:31:42Z`, `2024-04-10T18:31:42.123+02:00`. */
const RFC_3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 timestamp (as Anthropic writes resets) → epoch ms, fractions rounded up; also ISO
 * 8601's form without seconds (`2026-03-26T16:00Z`, as Atlassian writes `X-RateLimit-Reset`).
 */
export function parseRfc3339(text: string): number | null {
  const m = RFC_3339.exec(text);
  if (!m) return null;
  const local = utcMs(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  if (local === null) return null;
  let offsetMinutes = 0;
  if (m[8] === undefined) {
    const hours = +m[10]!;
    const minutes = +m[11]!;
    if (hours > 23 || minutes > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  return local + fractionToMs(m[7] ?? '') - offsetMinutes * 60_000;
}

/** Unsigned decimal, for resets: a negative reset means nothing. */
const UNSIGNED = /^(\d{1,20})(?:\.(\d{1,20}))?$/;

/**
 * A numeric reset whose meaning is unknown (rule 6), given its whole seconds-or-ms part and the
 * ms of its fraction: ≥ 1e12 is epoch ms, ≥ 1e9 is epoch seconds, below is seconds from now.
 * Returns the delay in ms.
 */
export function numericResetMs(whole: number, fractionMs: number, time: TimeBase): number | null {
  if (!Number.isFinite(whole) || whole < 0) return null;
  if (whole >= 1e12) return delayUntil(whole + (fractionMs > 0 ? 1 : 0), time);
  if (whole >= 1e9) return delayUntil(whole * 1000 + fractionMs, time);
  return whole * 1000 + fractionMs;
}

/**
 * A reset of unknown meaning (rule 6) → ms from receipt, or `null`. Numbers follow
 * {@link numericResetMs}; otherwise a Go duration, then RFC 3339, then an HTTP-date. Absolute
 * times are measured against the server's clock (rule 2).
 */
export function parseResetMs(text: string, time: TimeBase): number | null {
  const m = UNSIGNED.exec(text);
  if (m) return numericResetMs(+m[1]!, fractionToMs(m[2] ?? ''), time);
  const duration = parseGoDuration(text);
  if (duration !== null) return duration;
  const at = parseRfc3339(text) ?? parseHttpDate(text, time.receivedAt);
  return at === null ? null : delayUntil(at, time);
}

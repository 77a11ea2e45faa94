/**
 * `Retry-After` (RFC 9110 §10.2.3) and its millisecond sibling `retry-after-ms` (sent by OpenAI
 * and Anthropic, read by their SDKs), as a delay in ms.
 *
 * `Retry-After: 120` is delay-seconds; `Retry-After: 2.0` (Shopify writes decimals) is read
 * leniently as seconds rounded up to whole ms; otherwise it must be an HTTP-date, measured against
 * the server's clock (rule 2), a past date giving 0. Several field lines joined with `, ` (rule 3)
 * count only if every member is valid, and then the largest wins.
 */
import type { TimeBase } from './clock-skew.js';
import { delayUntil, LONGEST_DELAY_MS } from './clock-skew.js';
import { largestOfAll, MAX_FIELD_LENGTH, splitMembers, trimOws } from './fields.js';
import { parseHttpDate, splitKeepingDates } from './http-date.js';
import { secondsToMs } from './numbers.js';

const DELAY_SECONDS = /^(\d+)$/;
const DECIMAL_SECONDS = /^(\d+)\.(\d{1,20})$/;

/** One member: delay-seconds, decimal seconds or an HTTP-date → ms, or `null`. */
function retryAfterMember(text: string, time: TimeBase): number | null {
  const m = DELAY_SECONDS.exec(text) ?? DECIMAL_SECONDS.exec(text);
  if (m) return secondsToMs(m[1]!, m[2]);
  const at = parseHttpDate(text, time.receivedAt);
  return at === null ? null : delayUntil(at, time);
}

/** A `Retry-After` field value → ms to wait, or `null` when it is not valid. */
export function parseRetryAfter(value: string, time: TimeBase): number | null {
  if (value.length > MAX_FIELD_LENGTH) return null;
  const text = trimOws(value);
  const single = retryAfterMember(text, time);
  if (single !== null || !text.includes(',')) return single;
  return largestOfAll(splitKeepingDates(text), (member) => retryAfterMember(member, time));
}

const MILLISECONDS = /^(\d+)(?:\.(\d{1,20}))?$/;

/** One `retry-after-ms` member: ms, decimals rounded up. */
function retryAfterMsMember(text: string): number | null {
  const m = MILLISECONDS.exec(text);
  if (!m) return null;
  return Math.min(LONGEST_DELAY_MS, +m[1]! + (m[2] !== undefined && /[1-9]/.test(m[2]) ? 1 : 0));
}

/** A `retry-after-ms` field value (OpenAI, Anthropic) → ms, or `null` when it is not valid. */
export function parseRetryAfterMs(value: string): number | null {
  if (value.length > MAX_FIELD_LENGTH) return null;
  return largestOfAll(splitMembers(value), retryAfterMsMember);
}

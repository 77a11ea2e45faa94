/**
 * Counter fields written as plain text (`X-RateLimit-Limit: 5000`, `RateLimit-Remaining: 0`, the
 * vendor families): joined values (rule 3), strict numbers (rule 9), resets of unknown meaning
 * (rule 6), and the window they describe.
 */
import type { TimeBase } from './clock-skew.js';
import { largestOfAll, MAX_FIELD_LENGTH, smallestOfAll, splitMembers, trimOws } from './fields.js';
import { splitKeepingDates } from './http-date.js';
import { parseCount, parseResetMs } from './numbers.js';
import type { RateLimitPolicy } from './signal.js';

/** A counter, or the smallest of joined counters (all must be valid); may be negative. */
export function smallestCount(value: string | null): number | null {
  if (value === null || value.length > MAX_FIELD_LENGTH) return null;
  return smallestOfAll(splitMembers(value), parseCount);
}

/**
 * A reset, or the largest of joined resets (all must be valid), as ms from receipt. `parse`
 * reads one member: {@link parseResetMs} unless a family knows better.
 */
export function largestReset(
  value: string | null,
  time: TimeBase,
  parse: (member: string, time: TimeBase) => number | null = parseResetMs,
): number | null {
  if (value === null || value.length > MAX_FIELD_LENGTH) return null;
  const text = trimOws(value);
  const single = parse(text, time);
  if (single !== null || !text.includes(',')) return single;
  return largestOfAll(splitKeepingDates(text), (member) => parse(member, time));
}

/** The three numbers a counter family states about one window. */
export interface Counters {
  limit: number | null;
  remaining: number | null;
  resetInMs: number | null;
}

/**
 * Applies rule 9 to a limit/remaining pair: a negative limit makes the pair unknown; otherwise a
 * negative remaining clamps to 0.
 */
export function clampPair(limit: number | null, remaining: number | null): [number | null, number | null] {
  if (limit !== null && limit < 0) return [null, null];
  return [limit, remaining !== null && remaining < 0 ? 0 : remaining];
}

/** A window of `counters`, or `null` when the server stated none of the three numbers. */
export function counterWindow(
  name: string,
  unit: string,
  counters: Counters,
  extra?: Partial<Pick<RateLimitPolicy, 'windowMs' | 'partitionKey'>>,
): RateLimitPolicy | null {
  const [quota, remaining] = clampPair(counters.limit, counters.remaining);
  if (quota === null && remaining === null && counters.resetInMs === null) return null;
  return {
    name,
    quota,
    windowMs: extra?.windowMs ?? null,
    remaining,
    resetInMs: counters.resetInMs,
    partitionKey: extra?.partitionKey ?? null,
    unit,
  };
}

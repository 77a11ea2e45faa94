/**
 * Vendor header families (rule 10), each mapped onto the same windows as the IETF fields:
 *
 * - OpenAI: `x-ratelimit-{limit,remaining,reset}-{requests,tokens}`, resets as Go durations
 *   (`6m0s`) → dialect `openai`.
 * - Anthropic: `anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}`,
 *   resets as RFC 3339 timestamps → dialect `anthropic`.
 * - Discord: `X-RateLimit-Limit`/`-Remaining` with `X-RateLimit-Reset-After` in decimal seconds
 *   (preferred over the epoch `X-RateLimit-Reset`) and `X-RateLimit-Bucket` → dialect `discord`.
 * - Shopify: `X-Shopify-Shop-Api-Call-Limit: 32/40`, used/limit of its leaky bucket → dialect
 *   `shopify`, 8 remaining.
 *
 * Every reset goes through rule 6, so a vendor that changes format is still read.
 */
import type { TimeBase } from './clock-skew.js';
import { counterWindow, largestReset, smallestCount } from './counters.js';
import type { Fields } from './fields.js';
import { splitMembers, trimOws } from './fields.js';
import { DEFAULT_UNIT } from './ietf.js';
import type { RateLimitPolicy } from './signal.js';

type CounterNames = readonly [unit: string, limit: string, remaining: string, reset: string];

/** One window per unit, read from the field names of each unit. */
function unitWindows(fields: Fields, time: TimeBase, units: readonly CounterNames[]): RateLimitPolicy[] {
  const windows: RateLimitPolicy[] = [];
  for (const [unit, limit, remaining, reset] of units) {
    const window = counterWindow(unit, unit, {
      limit: smallestCount(fields.get(limit)),
      remaining: smallestCount(fields.get(remaining)),
      resetInMs: largestReset(fields.get(reset), time),
    });
    if (window !== null) windows.push(window);
  }
  return windows;
}

/** Field names spelled out once (constant strings are hashed once, not on every lookup). */
function names(units: readonly string[], name: (unit: string, counter: string) => string): CounterNames[] {
  return units.map((unit) => [unit, name(unit, 'limit'), name(unit, 'remaining'), name(unit, 'reset')]);
}

const OPENAI = names(['requests', 'tokens'], (unit, counter) => `x-ratelimit-${counter}-${unit}`);

/** OpenAI: `x-ratelimit-remaining-requests: 59`, `x-ratelimit-reset-tokens: 6m0s`. */
export function readOpenAI(fields: Fields, time: TimeBase): RateLimitPolicy[] {
  return fields.openai ? unitWindows(fields, time, OPENAI) : [];
}

const ANTHROPIC = names(
  ['requests', 'tokens', 'input-tokens', 'output-tokens'],
  (unit, counter) => `anthropic-ratelimit-${unit}-${counter}`,
);

/** Anthropic: `anthropic-ratelimit-requests-remaining: 49`, `…-reset: 2024-04-10T18:31:42Z`. */
export function readAnthropic(fields: Fields, time: TimeBase): RateLimitPolicy[] {
  return fields.anthropic ? unitWindows(fields, time, ANTHROPIC) : [];
}

/** Discord: `X-RateLimit-Reset-After: 1.234` (seconds) with the usual limit and remaining. */
export function readDiscord(fields: Fields, time: TimeBase): RateLimitPolicy[] {
  const resetAfter = fields.get('x-ratelimit-reset-after');
  if (resetAfter === null) return [];
  const bucket = fields.get('x-ratelimit-bucket');
  const window = counterWindow(
    DEFAULT_UNIT,
    DEFAULT_UNIT,
    {
      limit: smallestCount(fields.get('x-ratelimit-limit')),
      remaining: smallestCount(fields.get('x-ratelimit-remaining')),
      // Reset-After is relative: never subject to clock skew, so it wins over the epoch Reset.
      resetInMs: largestReset(resetAfter, time) ?? largestReset(fields.get('x-ratelimit-reset'), time),
    },
    { partitionKey: bucket === null ? null : trimOws(bucket) || null },
  );
  return window === null ? [] : [window];
}

const CALL_LIMIT = /^(\d{1,15})\s?\/\s?(\d{1,15})$/;

/** Shopify: `X-Shopify-Shop-Api-Call-Limit: 32/40` → 40 per bucket, 8 remaining. */
export function readShopify(fields: Fields): RateLimitPolicy[] {
  const value = fields.get('x-shopify-shop-api-call-limit');
  if (value === null) return [];
  // Joined field lines: every member must be valid; the smallest limit and remaining count.
  let limit = Number.POSITIVE_INFINITY;
  let remaining = Number.POSITIVE_INFINITY;
  for (const member of splitMembers(value)) {
    const m = CALL_LIMIT.exec(member);
    if (!m) return [];
    limit = Math.min(limit, +m[2]!);
    remaining = Math.min(remaining, Math.max(0, +m[2]! - +m[1]!));
  }
  const window = counterWindow(DEFAULT_UNIT, DEFAULT_UNIT, { limit, remaining, resetInMs: null });
  return window === null ? [] : [window];
}

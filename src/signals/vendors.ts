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
import { trimOws } from './fields.js';
import { DEFAULT_UNIT } from './ietf.js';
import type { RateLimitPolicy } from './signal.js';

/** One window per unit whose `limit`/`remaining`/`reset` fields are named by `field`. */
function unitWindows(
  fields: Fields,
  time: TimeBase,
  units: readonly string[],
  field: (unit: string, counter: 'limit' | 'remaining' | 'reset') => string,
): RateLimitPolicy[] {
  const windows: RateLimitPolicy[] = [];
  for (const unit of units) {
    const window = counterWindow(unit, unit, {
      limit: smallestCount(fields.get(field(unit, 'limit'))),
      remaining: smallestCount(fields.get(field(unit, 'remaining'))),
      resetInMs: largestReset(fields.get(field(unit, 'reset')), time),
    });
    if (window !== null) windows.push(window);
  }
  return windows;
}

const OPENAI_UNITS = ['requests', 'tokens'] as const;

/** OpenAI: `x-ratelimit-remaining-requests: 59`, `x-ratelimit-reset-tokens: 6m0s`. */
export function readOpenAI(fields: Fields, time: TimeBase): RateLimitPolicy[] {
  if (!fields.openai) return [];
  return unitWindows(fields, time, OPENAI_UNITS, (unit, counter) => `x-ratelimit-${counter}-${unit}`);
}

const ANTHROPIC_UNITS = ['requests', 'tokens', 'input-tokens', 'output-tokens'] as const;

/** Anthropic: `anthropic-ratelimit-requests-remaining: 49`, `…-reset: 2024-04-10T18:31:42Z`. */
export function readAnthropic(fields: Fields, time: TimeBase): RateLimitPolicy[] {
  if (!fields.anthropic) return [];
  return unitWindows(
    fields,
    time,
    ANTHROPIC_UNITS,
    (unit, counter) => `anthropic-ratelimit-${unit}-${counter}`,
  );
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
  const m = value === null ? null : CALL_LIMIT.exec(trimOws(value));
  if (!m) return [];
  const used = +m[1]!;
  const limit = +m[2]!;
  const window = counterWindow(DEFAULT_UNIT, DEFAULT_UNIT, {
    limit,
    remaining: Math.max(0, limit - used),
    resetInMs: null,
  });
  return window === null ? [] : [window];
}

/**
 * `readRateLimit`: any HTTP response → one {@link RateLimitSignal}, the server's statement about
 * its rate limits, before any client policy. Pure, total (never throws, a malformed field is
 * ignored) and linear in the size of the headers.
 *
 * ## Precedence
 *
 * Retry delay (`retryAfterMs`, only for 3xx, 4xx and 5xx responses; a 2xx has nothing to retry):
 * 1. `retry-after-ms` (OpenAI, Anthropic; Azure's `x-ms-retry-after-ms`), when valid;
 * 2. `Retry-After` (RFC 9110 §10.2.3), when valid;
 * 3. for 403, 429 and 503 only: the largest reset among the windows that report 0 remaining
 *    (GitHub answers 403 with `x-ratelimit-remaining: 0`; token windows and daily caps count);
 * 4. otherwise `null`. A 200 with 0 remaining still succeeded: it reports `remaining: 0`.
 *
 * Windows (`policies`, and `limit`/`remaining`/`resetInMs` of the request window the client paces
 * on), from the first family present, in this order:
 * 1. IETF `RateLimit` + `RateLimit-Policy` structured fields, drafts 08–11 (`ietf`);
 * 2. draft-07 `RateLimit` Dictionary (`draft-7`);
 * 3. drafts 03–06 `RateLimit-Limit`/`-Remaining`/`-Reset` (`draft-6`);
 * 4. vendor families: Anthropic (`anthropic`), OpenAI (`openai`), Discord (`discord`), Shopify
 *    (`shopify`);
 * 5. `X-RateLimit-*` / `X-Rate-Limit-*`, e.g. GitHub (`x-ratelimit`).
 *
 * With no window, the dialect is `retry-after` when a retry delay was read, else `none`. A
 * response with `Age` > 0 came from a cache: its IETF fields (families 1–3) are stale and ignored.
 * Absolute times are measured against the response's `Date` when valid (clock skew, rule 2).
 */

import { systemClock } from '../core/clock.js';
import type { TimeBase } from './clock-skew.js';
import { ResponseTime } from './clock-skew.js';
import type { Fields, HeaderSource } from './fields.js';
import { readFields, trimOws } from './fields.js';
import { DEFAULT_UNIT, readIetf } from './ietf.js';
import { readDraft6, readDraft7, readXRateLimit } from './legacy.js';
import { parseRetryAfter, parseRetryAfterMs } from './retry-after.js';
import type { RateLimitDialect, RateLimitPolicy, RateLimitSignal } from './signal.js';
import { readAnthropic, readDiscord, readOpenAI, readShopify } from './vendors.js';

/** What {@link readRateLimit} reads: a Fetch `Response` fits, and so does a plain object. */
export interface RateLimitResponse {
  /** HTTP status code. */
  readonly status: number;
  /** A Fetch `Headers` object, or a record of names (any case) to values or field lines. */
  readonly headers: HeaderSource;
}

/** Options of {@link readRateLimit}. */
export interface ReadRateLimitOptions {
  /**
   * Epoch ms on the client's clock when the response arrived; `resetAtMs` counts from it.
   * @default systemClock.wallNow()
   */
  receivedAt?: number;
}

type FamilyReader = (fields: Fields, time: TimeBase, cached: boolean) => RateLimitPolicy[];

/** The families in precedence order; the first that describes a window wins. */
const FAMILIES: readonly (readonly [RateLimitDialect, FamilyReader])[] = [
  ['ietf', (f, _t, cached) => (cached ? [] : readIetf(f.get('ratelimit'), f.get('ratelimit-policy')))],
  ['draft-7', (f, t, cached) => (cached ? [] : readDraft7(f, t))],
  ['draft-6', (f, t, cached) => (cached ? [] : readDraft6(f, t))],
  ['anthropic', readAnthropic],
  ['openai', readOpenAI],
  ['discord', readDiscord],
  ['shopify', readShopify],
  ['x-ratelimit', readXRateLimit],
];

/** Statuses whose exhausted windows say how long to wait when no retry field does (rule 5). */
const EXHAUSTION_STATUSES = new Set([403, 429, 503]);

const AGE = /^\d+$/;

/**
 * True when `Age` is a positive delta-seconds: the response came from a cache (rule 12). Several
 * values (two field lines, joined) are read by the first (RFC 9111 §5.1); one too large to
 * represent is still positive (§1.2.2).
 */
function fromCache(fields: Fields): boolean {
  const age = fields.get('age');
  if (age === null) return false;
  const comma = age.indexOf(',');
  const text = trimOws(comma < 0 ? age : age.slice(0, comma));
  return AGE.test(text) && /[1-9]/.test(text);
}

/**
 * The window the client paces on (rule 11): among `requests` windows (all windows when there is
 * none), the binding one, with the fewest remaining (unknown counts as infinitely many), ties going
 * to the later reset. `undefined` when there is no window.
 */
export function pacingWindow(policies: readonly RateLimitPolicy[]): RateLimitPolicy | undefined {
  let anyRequests = false;
  for (const p of policies) if (p.unit === DEFAULT_UNIT) anyRequests = true;
  let best: RateLimitPolicy | undefined;
  for (const p of policies) {
    if (anyRequests && p.unit !== DEFAULT_UNIT) continue;
    if (best === undefined) best = p;
    else {
      const a = p.remaining ?? Number.POSITIVE_INFINITY;
      const b = best.remaining ?? Number.POSITIVE_INFINITY;
      if (a < b || (a === b && (p.resetInMs ?? -1) > (best.resetInMs ?? -1))) best = p;
    }
  }
  return best;
}

/** The largest reset among windows with 0 remaining, or `null` (rule 5, step 3). */
function exhaustedReset(policies: readonly RateLimitPolicy[]): number | null {
  let largest: number | null = null;
  for (const p of policies) {
    if (p.remaining === 0 && p.resetInMs !== null && (largest === null || p.resetInMs > largest)) {
      largest = p.resetInMs;
    }
  }
  return largest;
}

function read(response: RateLimitResponse, receivedAt: number): RateLimitSignal {
  const fields = readFields(response.headers);
  const time: TimeBase = new ResponseTime(receivedAt, fields.get('date'));
  const cached = fromCache(fields);

  let dialect: RateLimitDialect = 'none';
  let policies: RateLimitPolicy[] = [];
  for (const [name, reader] of FAMILIES) {
    policies = reader(fields, time, cached);
    if (policies.length > 0) {
      dialect = name;
      break;
    }
  }

  const status = response.status;
  let retryAfterMs: number | null = null;
  if (Number.isInteger(status) && status >= 300 && status < 600) {
    // Azure (Cosmos DB) writes the same hint as `x-ms-retry-after-ms`.
    const ms = fields.get('retry-after-ms') ?? fields.get('x-ms-retry-after-ms');
    const seconds = fields.get('retry-after');
    retryAfterMs =
      (ms === null ? null : parseRetryAfterMs(ms)) ??
      (seconds === null ? null : parseRetryAfter(seconds, time));
    if (retryAfterMs !== null && dialect === 'none') dialect = 'retry-after';
    if (retryAfterMs === null && EXHAUSTION_STATUSES.has(status)) retryAfterMs = exhaustedReset(policies);
  }

  const window = pacingWindow(policies);
  const resetInMs = window?.resetInMs ?? null;
  return {
    retryAfterMs,
    limit: window?.quota ?? null,
    remaining: window?.remaining ?? null,
    resetInMs,
    resetAtMs: resetInMs === null ? null : receivedAt + resetInMs,
    policies,
    dialect,
  };
}

/** The signal of a response that says nothing. */
function silent(): RateLimitSignal {
  return {
    retryAfterMs: null,
    limit: null,
    remaining: null,
    resetInMs: null,
    resetAtMs: null,
    policies: [],
    dialect: 'none',
  };
}

/**
 * Reads what a response says about rate limits: `Retry-After`, every `RateLimit` draft, the
 * `X-RateLimit-*` family and vendor families (OpenAI, Anthropic, Discord, Shopify, GitHub), as
 * one {@link RateLimitSignal}. Values are the server's statement, before any client policy;
 * `null` means "the server did not say". Never throws.
 *
 * @example
 * ```ts
 * const response = await fetch(url);
 * const signal = readRateLimit(response, { receivedAt: Date.now() });
 * if (signal.retryAfterMs !== null) await sleep(signal.retryAfterMs);
 * ```
 */
export function readRateLimit(response: RateLimitResponse, options?: ReadRateLimitOptions): RateLimitSignal {
  try {
    const given = options?.receivedAt;
    const receivedAt = typeof given === 'number' && Number.isFinite(given) ? given : systemClock.wallNow();
    if (response === null || typeof response !== 'object') return silent();
    return read(response, receivedAt);
  } catch {
    return silent(); // unreachable by design; a safety net for exotic inputs (Proxies, getters)
  }
}

/**
 * The older rate-limit fields (rule 8), one reader per family:
 *
 * - draft-03 … draft-06 of draft-ietf-httpapi-ratelimit-headers: `RateLimit-Limit`,
 *   `RateLimit-Remaining`, `RateLimit-Reset` (delta seconds) → dialect `draft-6`. In draft-03 the
 *   limit may be a list whose first member is the limit, followed by quota policies:
 *   `RateLimit-Limit: 10, 10;w=1, 50;w=60`.
 * - draft-07: `RateLimit` as a Dictionary, `limit=100, remaining=50, reset=5`, with an optional
 *   `RateLimit-Policy: 100;w=60` of Integer items → dialect `draft-7`.
 * - `X-RateLimit-*` and `X-Rate-Limit-*` (one family: GitHub, Twitter/X and most APIs), reset as
 *   delta seconds, epoch seconds or epoch ms (rule 6) → dialect `x-ratelimit`. GitHub's
 *   `x-ratelimit-resource` names the window.
 */
import type { BareItem } from 'structured-headers';
import type { TimeBase } from './clock-skew.js';
import type { Counters } from './counters.js';
import { clampPair, counterWindow, largestReset, smallestCount } from './counters.js';
import { draft7Numbers } from './draft7-dictionary.js';
import type { Fields } from './fields.js';
import { trimOws } from './fields.js';
import { DEFAULT_UNIT } from './ietf.js';
import { numericResetMs } from './numbers.js';
import type { RateLimitPolicy } from './signal.js';
import { asItem, nonNegativeInteger, safeParseList } from './structured.js';

/** Name of the main window of a legacy family. */
export const LEGACY_WINDOW_NAME = 'default';

/** A quota policy of the old drafts: `50;w=60` (50 units per 60 s). */
interface QuotaPolicy {
  readonly quota: number;
  readonly windowMs: number | null;
}

/** A number as an RFC 9651 Integer or Decimal gives it, floored (rule 9). */
function flooredNumber(value: BareItem | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) + 0 : null;
}

/**
 * The last value {@link quotaPolicies} read, and its policies: a server sends the same
 * `RateLimit-Policy` on every answer, so a value that repeats the one before it is not parsed
 * again. The policies are only read, never changed.
 */
let lastQuotaValue: string | null = null;
let lastQuotaPolicies: readonly QuotaPolicy[] | null = null;

/** The Integer-valued members of a List (`100, 50;w=60`), or `null` unless every member is one. */
function quotaPolicies(value: string | null): readonly QuotaPolicy[] | null {
  if (value === null) return null;
  if (value !== lastQuotaValue) {
    lastQuotaPolicies = parseQuotaPolicies(value);
    lastQuotaValue = value;
  }
  return lastQuotaPolicies;
}

function parseQuotaPolicies(value: string): QuotaPolicy[] | null {
  const list = safeParseList(value);
  if (list === null) return null;
  const policies: QuotaPolicy[] = [];
  for (const member of list) {
    const item = asItem(member);
    const quota = item === null ? null : flooredNumber(item[0]);
    if (item === null || quota === null) return null;
    const w = nonNegativeInteger(item[1].get('w')); // the old drafts' own `w`, frozen: not IETF_PARAMETERS
    policies.push({ quota, windowMs: w === null ? null : w * 1000 });
  }
  return policies;
}

/** The policy windows of the list other than the main one. */
function extraWindows(policies: readonly QuotaPolicy[]): RateLimitPolicy[] {
  return policies
    .filter((p) => p.quota >= 0)
    .map((p) => ({
      name: p.windowMs === null ? `${p.quota}` : `${p.quota};w=${p.windowMs / 1000}`,
      quota: p.quota,
      windowMs: p.windowMs,
      remaining: null,
      resetInMs: null,
      partitionKey: null,
      unit: DEFAULT_UNIT,
    }));
}

/**
 * The main window and the quota policies that describe it or sit beside it. The main window
 * takes the `w` of the first policy whose quota equals its limit; other policies become
 * windows of their own.
 */
function withPolicies(
  counters: Counters,
  windowMs: number | null,
  policies: readonly QuotaPolicy[],
  name: string,
): RateLimitPolicy[] {
  const [limit] = clampPair(counters.limit, counters.remaining);
  let rest = policies;
  if (limit !== null) {
    const index = policies.findIndex(
      (p) => p.quota === limit && (windowMs === null || p.windowMs === windowMs),
    );
    if (index >= 0) {
      windowMs ??= policies[index]!.windowMs;
      rest = policies.filter((_, i) => i !== index);
    }
  }
  const main = counterWindow(name, DEFAULT_UNIT, counters, { windowMs });
  return main === null ? extraWindows(rest) : [main, ...extraWindows(rest)];
}

/**
 * A limit field: plain counters joined with `, ` give the smallest (rule 3); a draft-03 list
 * (`10, 10;w=1, 50;w=60`, some member with a `w`) gives its first member as the limit and the
 * rest as quota policies.
 */
function readLimit(value: string | null): {
  limit: number | null;
  windowMs: number | null;
  policies: QuotaPolicy[];
} {
  const list = value?.includes(';') ? quotaPolicies(value) : null;
  if (list !== null && list.length > 0 && list.some((p) => p.windowMs !== null)) {
    const [first, ...policies] = list;
    return { limit: first!.quota, windowMs: first!.windowMs, policies };
  }
  return { limit: smallestCount(value), windowMs: null, policies: [] };
}

/**
 * A counter field's members without their parameters: Docker Hub writes the remaining count as an
 * Integer item, `RateLimit-Remaining: 76;w=21600`, as the limit beside it. A member that is only a
 * number is left as it is.
 */
function withoutParameters(field: string | null): string | null {
  if (field === null || !field.includes(';')) return field;
  return field.replace(/;[^,]*/g, '');
}

/** Windows of a `Limit`/`Remaining`/`Reset` triple plus any Integer-item `RateLimit-Policy`. */
function readTriple(
  limitField: string | null,
  remainingField: string | null,
  resetField: string | null,
  policyField: string | null,
  time: TimeBase,
  name: string,
): RateLimitPolicy[] {
  const { limit, windowMs, policies } = readLimit(limitField);
  const counters = {
    limit,
    remaining: smallestCount(withoutParameters(remainingField)),
    resetInMs: largestReset(withoutParameters(resetField), time),
  };
  const extra = quotaPolicies(policyField) ?? [];
  return withPolicies(counters, windowMs, [...policies, ...extra], name);
}

/** draft-03 … draft-06: `RateLimit-Limit`, `-Remaining`, `-Reset` → dialect `draft-6`. */
export function readDraft6(fields: Fields, time: TimeBase): RateLimitPolicy[] {
  const limit = fields.get('ratelimit-limit');
  const remaining = fields.get('ratelimit-remaining');
  const reset = fields.get('ratelimit-reset');
  if (limit === null && remaining === null && reset === null) return [];
  return readTriple(limit, remaining, reset, fields.get('ratelimit-policy'), time, LEGACY_WINDOW_NAME);
}

/** draft-07: `RateLimit: limit=100, remaining=50, reset=5` (+ `RateLimit-Policy: 100;w=60`). */
export function readDraft7(fields: Fields, time: TimeBase): RateLimitPolicy[] {
  const numbers = draft7Numbers(fields.get('ratelimit'));
  const policies = quotaPolicies(fields.get('ratelimit-policy')) ?? [];
  const { reset } = numbers;
  const whole = reset === null ? 0 : Math.floor(reset);
  const counters = {
    limit: flooredNumber(numbers.limit ?? undefined),
    remaining: flooredNumber(numbers.remaining ?? undefined),
    resetInMs: reset === null ? null : numericResetMs(whole, Math.round((reset - whole) * 1000), time),
  };
  if (counters.limit === null && counters.remaining === null && counters.resetInMs === null) {
    // A lone `RateLimit-Policy: 100;w=60` is draft-07's, unless draft-6 counters will claim it.
    return DRAFT_6_FIELDS.some((n) => fields.get(n) !== null) ? [] : extraWindows(policies);
  }
  return withPolicies(counters, null, policies, LEGACY_WINDOW_NAME);
}

const DRAFT_6_FIELDS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

/** The two spellings of one family, joined as if they were field lines of one field. */
function either(fields: Fields, name: string, alias: string): string | null {
  const a = fields.get(name);
  const b = fields.get(alias);
  return a === null ? b : b === null ? a : `${a}, ${b}`;
}

/** A window name from GitHub's `x-ratelimit-resource` (`core`, `search`, …). */
function resourceName(fields: Fields): string {
  const resource = fields.get('x-ratelimit-resource');
  const name = resource === null ? '' : trimOws(resource);
  return /^[\w.-]{1,64}$/.test(name) ? name : LEGACY_WINDOW_NAME;
}

/** `X-RateLimit-*` / `X-Rate-Limit-*` (GitHub, Twitter/X, most APIs) → dialect `x-ratelimit`. */
export function readXRateLimit(fields: Fields, time: TimeBase): RateLimitPolicy[] {
  // Zendesk names the limit `X-Rate-Limit` beside `X-Rate-Limit-Remaining`.
  const limit = either(fields, 'x-ratelimit-limit', 'x-rate-limit-limit') ?? fields.get('x-rate-limit');
  const remaining = either(fields, 'x-ratelimit-remaining', 'x-rate-limit-remaining');
  const reset = either(fields, 'x-ratelimit-reset', 'x-rate-limit-reset');
  if (limit === null && remaining === null && reset === null) return [];
  return readTriple(limit, remaining, reset, null, time, resourceName(fields));
}

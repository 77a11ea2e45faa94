/**
 * IETF `RateLimit` and `RateLimit-Policy` structured fields, drafts 08 to 11 of
 * draft-ietf-httpapi-ratelimit-headers (rule 7):
 *
 * ```http
 * RateLimit-Policy: "default";q=100;w=60, "daily";q=1000;w=86400;qu="requests"
 * RateLimit: "default";r=50;t=30
 * ```
 *
 * Both are RFC 9651 Lists read by a real parser. A syntax error drops the whole field; an item
 * that breaks the draft (a name that is not a String; `q`/`r` missing, negative or not an
 * Integer; `w`/`t` present but not a non-negative Integer) is dropped alone; unknown parameters
 * are ignored. `RateLimit` items are matched to policies by name.
 */
import type { Item, Parameters } from 'structured-headers';
import { append } from '../core/append.js';
import type { RateLimitPolicy } from './signal.js';
import { asItem, byteSequenceText, nonNegativeInteger, safeParseList } from './structured.js';

/**
 * Every parameter name of the IETF fields, in one place: the drafts have renamed them before
 * (draft 08 replaced dictionaries with `q`/`w`/`r`/`t`) and a rename of `r`/`t` is discussed.
 */
export const IETF_PARAMETERS = {
  /** `RateLimit-Policy`: quota units per window (required Integer). */
  quota: 'q',
  /** `RateLimit-Policy`: window in seconds (optional Integer). */
  window: 'w',
  /** `RateLimit-Policy`: quota unit, `requests` when absent (optional String). */
  quotaUnit: 'qu',
  /** `RateLimit-Policy` and `RateLimit`: partition key (optional Byte Sequence). */
  partitionKey: 'pk',
  /** `RateLimit`: remaining quota units (required Integer). */
  remaining: 'r',
  /** `RateLimit`: seconds until the quota resets (optional Integer). */
  reset: 't',
} as const;

/** The default quota unit of the drafts. */
export const DEFAULT_UNIT = 'requests';

interface NamedItem {
  readonly name: string;
  readonly params: Parameters;
}

/**
 * Memo of {@link parseNamedItems} by `RateLimit-Policy` value: a server sends the same policy on
 * every answer, so each value that repeats is parsed once. The items are only read, never
 * changed. A value enters it the second time it is seen ({@link SEEN_ONCE}), so a value seen once
 * is not kept alive for nothing. Bounded: cleared past 256 values.
 */
const NAMED_ITEMS = new Map<string, readonly NamedItem[] | null>();
/** Values parsed once and not kept yet. Bounded: cleared past 64. */
const SEEN_ONCE = new Set<string>();

/**
 * The last `RateLimit` value parsed, and its items. Its counts change on most answers: a memo by
 * value would hash and file every answer's value for nothing, so only a value that repeats the
 * one before it is not parsed again.
 */
let lastCounters: string | null = null;
let lastCounterItems: readonly NamedItem[] | null = null;

/** True when the value may hold a named item: no String, no named item, no parse. */
function mayName(value: string | null): value is string {
  return value?.includes('"') ?? false;
}

/** The last `RateLimit-Policy` value read, and its items: comparing with it costs less than hashing a new string. */
let lastPolicy: string | null = null;
let lastPolicyItems: readonly NamedItem[] | null = null;

/** The String-named Items of a `RateLimit-Policy` value, in order, first of each name; `null` when unparsable. */
function policyItems(value: string | null): readonly NamedItem[] | null {
  if (!mayName(value)) return null;
  if (value === lastPolicy) return lastPolicyItems;
  let items = NAMED_ITEMS.get(value);
  if (items === undefined) {
    items = parseNamedItems(value);
    if (SEEN_ONCE.delete(value)) {
      if (NAMED_ITEMS.size >= 256) NAMED_ITEMS.clear();
      NAMED_ITEMS.set(value, items);
    } else {
      if (SEEN_ONCE.size >= 64) SEEN_ONCE.clear();
      SEEN_ONCE.add(value);
    }
  }
  lastPolicy = value;
  lastPolicyItems = items;
  return items;
}

/** The String-named Items of a `RateLimit` value, as {@link policyItems}. */
function counterItems(value: string | null): readonly NamedItem[] | null {
  if (!mayName(value)) return null;
  if (value !== lastCounters) {
    lastCounterItems = parseNamedItems(value);
    lastCounters = value;
  }
  return lastCounterItems;
}

function parseNamedItems(value: string): NamedItem[] | null {
  const list = safeParseList(value);
  if (list === null) return null;
  let items: NamedItem[] | null = null;
  for (const member of list) {
    const item: Item | null = asItem(member);
    if (item === null || typeof item[0] !== 'string' || indexOfName(items, item[0]) >= 0) continue;
    items = append(items, { name: item[0], params: item[1] });
  }
  return items ?? [];
}

/** Where `name` is among `named` (none: `null`), or -1. A linear scan: these lists hold a few windows. */
function indexOfName(named: readonly { readonly name: string }[] | null, name: string): number {
  if (named === null) return -1;
  for (let i = 0; i < named.length; i++) if (named[i]?.name === name) return i;
  return -1;
}

/** A `RateLimit` item's reading, matched to its policy by name. */
interface Current {
  readonly name: string;
  readonly remaining: number;
  readonly resetInMs: number | null;
  readonly pk: string | null;
  matched: boolean;
}

/** A required non-negative Integer parameter, or `null` (the item is then dropped). */
function required(params: Parameters, name: string): number | null {
  return nonNegativeInteger(params.get(name));
}

/** An optional non-negative Integer parameter: `null` when absent, `undefined` when invalid. */
function optional(params: Parameters, name: string): number | null | undefined {
  if (!params.has(name)) return null;
  return nonNegativeInteger(params.get(name)) ?? undefined;
}

function unitOf(params: Parameters): string {
  const unit = params.get(IETF_PARAMETERS.quotaUnit);
  return typeof unit === 'string' && unit.length > 0 ? unit : DEFAULT_UNIT;
}

/**
 * Reads the IETF fields into windows: one per valid `RateLimit-Policy` item (with the `r`/`t` of
 * the `RateLimit` item of the same name), then one per valid `RateLimit` item without a policy.
 * Empty when neither field holds a valid String-named item.
 */
export function readIetf(rateLimit: string | null, rateLimitPolicy: string | null): RateLimitPolicy[] {
  const p = IETF_PARAMETERS;
  // In order, one per name (the items are): an array, not a Map, for a list of a few.
  let current: Current[] | null = null;
  for (const { name, params } of counterItems(rateLimit) ?? []) {
    const remaining = required(params, p.remaining);
    const reset = optional(params, p.reset);
    if (remaining === null || reset === undefined) continue;
    const pk = byteSequenceText(params.get(p.partitionKey));
    const reading = { name, remaining, resetInMs: reset === null ? null : reset * 1000, pk, matched: false };
    current = append(current, reading);
  }

  let windows: RateLimitPolicy[] | null = null;
  for (const { name, params } of policyItems(rateLimitPolicy) ?? []) {
    const quota = required(params, p.quota);
    const window = optional(params, p.window);
    if (quota === null || window === undefined) continue;
    const at = indexOfName(current, name);
    const now = at >= 0 && !current?.[at]?.matched ? current?.[at] : undefined;
    if (now) now.matched = true;
    windows = append(windows, {
      name,
      quota,
      windowMs: window === null ? null : window * 1000,
      remaining: now?.remaining ?? null,
      resetInMs: now?.resetInMs ?? null,
      partitionKey: now?.pk ?? byteSequenceText(params.get(p.partitionKey)),
      unit: unitOf(params),
    });
  }
  for (const now of current ?? []) {
    if (now.matched) continue;
    windows = append(windows, {
      name: now.name,
      quota: null,
      windowMs: null,
      remaining: now.remaining,
      resetInMs: now.resetInMs,
      partitionKey: now.pk,
      unit: DEFAULT_UNIT,
    });
  }
  return windows ?? [];
}

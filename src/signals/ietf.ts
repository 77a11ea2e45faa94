/**
 * IETF `RateLimit` and `RateLimit-Policy` structured fields, drafts 08 to 11 of
 * draft-ietf-httpapi-ratelimit-headers (rule 7):
 *
 * ```http
 * RateLimit-Policy: "default";q=100;w=60, "daily";q=1000;w=86400;qu="requests"
 * RateLimit: "default";r=50;t=30
 * ```
 *
 * Both are RFC 9651 Lists, read by a dedicated scanner for the shapes servers write and by the
 * `structured-headers` parser for the rest (`ietf-items.ts`). A syntax error drops the whole field; an item
 * that breaks the draft (a name that is not a String; `q`/`r` missing, negative or not an
 * Integer; `w`/`t` present but not a non-negative Integer) is dropped alone; unknown parameters
 * are ignored. `RateLimit` items are matched to policies by name.
 */
import type { BareItem } from 'structured-headers';
import { append } from '../core/append.js';
import { LONGEST_DELAY_MS } from './clock-skew.js';
import { IETF_PARAMETERS, type IetfItem, ietfItems, newItem } from './ietf-items.js';
import type { RateLimitPolicy } from './signal.js';
import { byteSequenceText, MAX_INTEGER_DIGITS, nonNegativeInteger } from './structured.js';

export { IETF_PARAMETERS };

/** The default quota unit of the drafts. */
export const DEFAULT_UNIT = 'requests';

/** A valid `RateLimit-Policy` item, read. */
interface PolicyReading {
  readonly name: string;
  readonly quota: number;
  readonly windowMs: number | null;
  readonly partitionKey: string | null;
  readonly unit: string;
}

/**
 * Memo of {@link readPolicies} by `RateLimit-Policy` value: a server sends the same policy on
 * every answer, so each value that repeats is read once. The readings are only read, never
 * changed. A value enters it the second time it is seen ({@link SEEN_ONCE}), so a value seen once
 * is not kept alive for nothing. Bounded: cleared past 256 values.
 */
const POLICIES = new Map<string, readonly PolicyReading[] | null>();
/** Values read once and not kept yet. Bounded: cleared past 64. */
const SEEN_ONCE = new Set<string>();

/** The last `RateLimit-Policy` value read, and its readings: comparing with it costs less than hashing a new string. */
let lastPolicy: string | null = null;
let lastPolicyReadings: readonly PolicyReading[] | null = null;

/**
 * The last `RateLimit` value read, and its items. Its counts change on most answers: a memo by
 * value would hash and file every answer's value for nothing, so only a value that repeats the
 * one before it is not read again. Its items are validated as they become windows
 * ({@link counterRemaining}): no reading of its own per answer.
 */
let lastCounters: string | null = null;
let lastCounterItems: readonly IetfItem[] | null = null;

/** True when the value may hold a named item: no String, no named item, no parse. */
function mayName(value: string | null): value is string {
  return value?.includes('"') ?? false;
}

/** The valid items of a `RateLimit-Policy` value, in order; `null` when unparsable. */
function policyReadings(value: string | null): readonly PolicyReading[] | null {
  // The last value passed `mayName` when it was read: compared first, it needs no scan.
  if (value === lastPolicy && value !== null) return lastPolicyReadings;
  if (!mayName(value)) return null;
  let readings = POLICIES.get(value);
  if (readings === undefined) {
    readings = readPolicies(value);
    if (SEEN_ONCE.delete(value)) {
      if (POLICIES.size >= 256) POLICIES.clear();
      POLICIES.set(value, readings);
    } else {
      if (SEEN_ONCE.size >= 64) SEEN_ONCE.clear();
      SEEN_ONCE.add(value);
    }
  }
  lastPolicy = value;
  lastPolicyReadings = readings;
  return readings;
}

/**
 * The shape most servers send, one item `"name";r=<Integer>;t=<Integer>`: once a value of that
 * shape has been read, the next that starts with the same `"name";r=` is read without a scan (its
 * counts change on every answer, its name does not). `null` until such a value was read.
 */
let shapePrefix: string | null = null;
let shapeName = '';

/**
 * The one item a value of the common shape is read into, rewritten by each (made by `newItem`, so
 * it has every item's fields in their order). Only the last value's items are ever read
 * ({@link lastCounterItems}), and only while {@link readIetf} turns them into windows.
 */
const shaped: { -readonly [K in keyof IetfItem]: IetfItem[K] } = newItem('');
const SHAPED_ITEMS: readonly IetfItem[] = [shaped];

/**
 * The items of `value` when it has the last common shape's prefix, then `r`'s digits, `;t=`, and
 * `t`'s digits to the end (exactly what the scan would read, and all it would read); else `undefined`.
 */
function commonShape(value: string): readonly IetfItem[] | undefined {
  const prefix = shapePrefix;
  if (prefix === null || !value.startsWith(prefix)) return undefined;
  let pos = prefix.length;
  let remaining = 0;
  const rStart = pos;
  for (let c = value.charCodeAt(pos); c >= 0x30 && c <= 0x39; c = value.charCodeAt(++pos))
    remaining = remaining * 10 + c - 0x30;
  if (pos === rStart || pos - rStart > MAX_INTEGER_DIGITS || !value.startsWith(';t=', pos)) return undefined;
  pos += 3;
  let reset = 0;
  const tStart = pos;
  for (let c = value.charCodeAt(pos); c >= 0x30 && c <= 0x39; c = value.charCodeAt(++pos))
    reset = reset * 10 + c - 0x30;
  if (pos === tStart || pos - tStart > MAX_INTEGER_DIGITS || pos !== value.length) return undefined;
  shaped.name = shapeName;
  shaped.remaining = remaining;
  shaped.reset = reset;
  return SHAPED_ITEMS;
}

/** Remembers `value`'s prefix when its `items` have the common shape (checked by writing it back). */
function learnShape(value: string, items: readonly IetfItem[] | null): void {
  const item = items?.length === 1 ? items[0] : undefined;
  if (item === undefined || /["\\]/.test(item.name)) return;
  const { remaining, reset } = item;
  if (typeof remaining !== 'number' || typeof reset !== 'number') return;
  const prefix = `"${item.name}";r=`;
  if (value !== `${prefix}${remaining};t=${reset}`) return;
  shapePrefix = prefix;
  shapeName = item.name;
}

/** The items of a `RateLimit` value, valid or not; `null` when unparsable. */
function counterItems(value: string | null): readonly IetfItem[] | null {
  if (value === null) return null;
  if (value !== lastCounters) {
    // The common shape starts with a String: it needs no `mayName` scan.
    let items: readonly IetfItem[] | null | undefined = commonShape(value);
    if (items === undefined) {
      if (!mayName(value)) return null;
      items = ietfItems(value);
      learnShape(value, items);
    }
    lastCounterItems = items;
    lastCounters = value;
  }
  return lastCounterItems;
}

/** A required non-negative Integer parameter, or `null` (the item is then dropped). */
function required(value: BareItem | undefined): number | null {
  return nonNegativeInteger(value);
}

/** An optional non-negative Integer parameter in ms: `null` when absent, `undefined` when invalid. */
function optionalMs(value: BareItem | undefined): number | null | undefined {
  if (value === undefined) return null;
  const seconds = nonNegativeInteger(value);
  // Capped, never dropped, as every other hint: a very long wait stays a wait.
  return seconds === null ? undefined : Math.min(LONGEST_DELAY_MS, seconds * 1000);
}

/** A policy's window `w`: optional, and when given a positive Integer (drafts 10–11 §3.1.3: "non-zero"). */
function optionalWindowMs(value: BareItem | undefined): number | null | undefined {
  const ms = optionalMs(value);
  return ms === 0 ? undefined : ms;
}

/**
 * The unit a policy counts (`qu`), `requests` when unstated. Units key plain records (a call's
 * cost per unit): a name every object already holds (`constructor`, `toString`, `__proto__`) would
 * read that member, so it is marked apart (`qu:constructor`): no server can switch a window off.
 */
function unitOf(item: IetfItem): string {
  const unit = item.quotaUnit;
  if (typeof unit !== 'string' || unit.length === 0) return DEFAULT_UNIT;
  return unit in Object.prototype ? `qu:${unit}` : unit;
}

/** `RateLimit-Policy` items: `q` required, `w` optional. */
function readPolicies(value: string): PolicyReading[] | null {
  const items = ietfItems(value);
  if (items === null) return null;
  let readings: PolicyReading[] | null = null;
  for (const item of items) {
    const quota = required(item.quota);
    const windowMs = optionalWindowMs(item.window);
    if (quota === null || windowMs === undefined) continue;
    const partitionKey = byteSequenceText(item.partitionKey);
    readings = append(readings, { name: item.name, quota, windowMs, partitionKey, unit: unitOf(item) });
  }
  return readings ?? [];
}

/** A `RateLimit` item's `r`, or `null` when the item breaks the draft (`r` required, `t` optional): it is then dropped. */
function counterRemaining(item: IetfItem): number | null {
  const remaining = required(item.remaining);
  return remaining !== null && optionalMs(item.reset) !== undefined ? remaining : null;
}

/** The reading named `name` (none: `undefined`). A linear scan: these lists hold a few windows. */
function named<R extends { readonly name: string }>(
  readings: readonly R[] | null,
  name: string,
): R | undefined {
  if (readings !== null) for (const reading of readings) if (reading.name === name) return reading;
  return undefined;
}

/**
 * Reads the IETF fields into windows: one per valid `RateLimit-Policy` item (with the `r`/`t` of
 * the `RateLimit` item of the same name), then one per valid `RateLimit` item without a policy.
 * Empty when neither field holds a valid String-named item. Names are unique in each field (the
 * first of each name counts), so each `RateLimit` item meets at most one policy.
 */
export function readIetf(rateLimit: string | null, rateLimitPolicy: string | null): RateLimitPolicy[] {
  const counters = counterItems(rateLimit);
  const policies = policyReadings(rateLimitPolicy);
  let windows: RateLimitPolicy[] | null = null;
  let matched = 0;
  if (policies !== null)
    for (const policy of policies) {
      const now = named(counters, policy.name);
      if (now !== undefined) matched++;
      const remaining = now === undefined ? null : counterRemaining(now);
      const counted = remaining !== null;
      windows = append(windows, {
        name: policy.name,
        quota: policy.quota,
        windowMs: policy.windowMs,
        remaining,
        resetInMs: counted ? (optionalMs(now?.reset) ?? null) : null,
        partitionKey: (counted ? byteSequenceText(now?.partitionKey) : null) ?? policy.partitionKey,
        unit: policy.unit,
      });
    }
  // Each item met at most one policy: when every item met one, none is left to read on its own
  // (the common answer, one policy and its counters: the items are not matched by name again).
  if (counters !== null && matched < counters.length)
    for (const now of counters) {
      const remaining = counterRemaining(now);
      if (remaining === null || named(policies, now.name) !== undefined) continue;
      windows = append(windows, {
        name: now.name,
        quota: null,
        windowMs: null,
        remaining,
        resetInMs: optionalMs(now.reset) ?? null,
        partitionKey: byteSequenceText(now.partitionKey),
        unit: DEFAULT_UNIT,
      });
    }
  return windows ?? [];
}

/**
 * Options of {@link createFetch}: one typed defaults object, validated eagerly.
 */
import type { BackoffOptions, Random } from '../core/backoff.js';
import { defaultBackoff, validateBackoff } from '../core/backoff.js';
import type { Clock } from '../core/clock.js';
import { systemClock } from '../core/clock.js';
import { ignoreRejection, isThenable } from '../core/ignore-rejection.js';
import { defaultBurst } from '../core/limit.js';
import type { RetryBudgetOptions } from '../core/retry-budget.js';
import { defaultRetryBudget, validateRetryBudget } from '../core/retry-budget.js';
import {
  clockOption,
  finiteRefill,
  func,
  invalid,
  nonNegative,
  nonNegativeInteger,
  oneOf,
  positive,
  positiveInteger,
  withDefaults,
} from '../core/validate.js';
import type { RateLimitStore } from '../stores/store.js';
import type { Cost } from './cost.js';
import type { RequestDescription } from './request.js';

/** The transport: `fetch`'s own signature. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Options that can differ per key (see `policyFor`). */
export interface KeyOptions {
  /** Sustained requests (cost units) per second for this key; unset = learn it from the server. @default undefined */
  rate?: number;
  /** Bucket capacity: how many units may go at once. @default max(1, rate) when `rate` is set */
  burst?: number;
  /**
   * How a window's quota is used: `'spend'` sends as soon as the server allows (a batch finishes
   * fastest), `'spread'` spaces the quota evenly over the window (an app keeps room for later
   * calls, at the cost of waiting between them). @default 'spend'
   */
  quota: 'spend' | 'spread';
  /** Most calls of this key in flight at once. @default Infinity */
  maxConcurrent: number;
  /** Most calls of this key waiting (pacing, gate, concurrency) before {@link QueueFullError}. @default 10_000 */
  maxQueue: number;
  /** Retries per call after the first attempt. @default 2 */
  retries: number;
  /**
   * A server hint above this fails fast with `RateLimitedError` instead of waiting. A minute and a
   * little: a per-minute window that is spent, its reset stated to the second and rounded up (and
   * measured against a `Date` that is rounded too), is waited out, not failed. @default 65_000
   */
  maxRetryAfterMs: number;
  /** Backoff when the server gives no hint. @default { baseMs: 100, capMs: 10_000 } */
  backoff: BackoffOptions;
  /** Retries may add at most this share of the traffic. @default { ratio: 0.2, minPerSecond: 10, ttlMs: 10_000 } */
  retryBudget: RetryBudgetOptions;
  /** When the budget is spent: return the last response, or throw `RetryBudgetExhaustedError`. @default 'return' */
  onBudgetExhausted: 'return' | 'throw';
  /** Per-attempt timeout in ms; unset = none. @default undefined */
  timeoutMs?: number;
  /** Whole-call deadline in ms (queue + waits + attempts); unset = none. @default undefined */
  deadlineMs?: number;
  /** With a `store`: how many processes share the quota; if the store fails, each paces at `rate / expectedWorkers`. @default 1 */
  expectedWorkers: number;
}

/** Options of {@link createFetch}. Every field is optional. */
export interface ClientOptions extends Partial<KeyOptions> {
  /** Transport, looked up at call time so polyfills and mocks are seen. @default globalThis.fetch */
  fetch?: FetchLike;
  /** The quota a request belongs to. @default the request's origin */
  key?: (request: RequestDescription) => string;
  /**
   * Per-host overrides of the key options, by host name (`'api.github.com'`) or host and port
   * (`'localhost:8080'`, which wins over the bare name). A key takes the entry of the host its first
   * request goes to; `policyFor(key)` overrides it. Validated at construction. @default none
   */
  hosts?: Readonly<Record<string, Partial<KeyOptions>>>;
  /** Per-key overrides of the key options (over `hosts`). @default none */
  policyFor?: (key: string) => Partial<KeyOptions> | undefined;
  /**
   * What a request costs before it is sent: requests (a number, the unit of `rate`), or units by
   * the names of the server's windows (`{ tokens: 430 }`; see `llmCost`). A unit left out is
   * learned from how its window's `remaining` moves. @default 1 request
   */
  cost?: (request: RequestDescription) => Cost;
  /**
   * What an answered call actually cost (e.g. `openaiUsage`: its `usage.total_tokens`), read from
   * a clone of the response after it was returned: a sample for the units `cost` leaves out. The
   * hook must read or cancel the clone (an unread clone buffers the body). @default undefined
   */
  settleCost?: (response: Response) => Cost | undefined | Promise<Cost | undefined>;
  /** `'batch'` raises `maxRetryAfterMs` to 15 minutes and `retries` to 5. @default 'default' */
  profile?: 'default' | 'batch';
  /** Clock for every wait. @default systemClock */
  clock?: Clock;
  /** Randomness for jitter. @default Math.random */
  random?: Random;
  /**
   * Share each key's bucket and gate through a store (e.g. `redisStore` from `headway/redis`), so
   * many processes pace from one quota: at `rate` when set, else at the rate and burst one process
   * learns from the server's headers (until then, only the gate is shared). @default undefined (local only)
   */
  store?: RateLimitStore;
}

/** Per-call additions to `RequestInit`. */
export interface HeadwayInit extends RequestInit {
  /** Higher leaves its key's queue first, after the call already waiting at its head (named so as not to clash with fetch's own `priority`). @default 0 */
  queuePriority?: number;
  /** Overrides the client's `deadlineMs` for this call. */
  deadlineMs?: number;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
}

/** The defaults, written once. */
export const defaultKeyOptions: KeyOptions = {
  rate: undefined,
  burst: undefined,
  quota: 'spend',
  maxConcurrent: Number.POSITIVE_INFINITY,
  maxQueue: 10_000,
  retries: 2,
  maxRetryAfterMs: 65_000,
  backoff: defaultBackoff,
  retryBudget: defaultRetryBudget,
  onBudgetExhausted: 'return',
  timeoutMs: undefined,
  deadlineMs: undefined,
  expectedWorkers: 1,
};

const batchProfile: Partial<KeyOptions> = { maxRetryAfterMs: 15 * 60_000, retries: 5 };

/** Options after defaults, with the key-independent parts resolved. */
export interface ResolvedClientOptions {
  base: KeyOptions;
  fetch: FetchLike | undefined;
  key: ((request: RequestDescription) => string) | undefined;
  /** `hosts`, each entry merged over `base` and validated. */
  hosts: ReadonlyMap<string, KeyOptions>;
  policyFor: ((key: string) => Partial<KeyOptions> | undefined) | undefined;
  cost: ((request: RequestDescription) => Cost) | undefined;
  settleCost: ((response: Response) => Cost | undefined | Promise<Cost | undefined>) | undefined;
  store: RateLimitStore | undefined;
  clock: Clock;
  random: Random;
}

/**
 * Validates one key's options. `costsOne`: the client has no `cost` option, so every call costs 1
 * request, and a burst below 1 could never let one go.
 */
export function validateKeyOptions(options: KeyOptions, prefix = '', costsOne = false): KeyOptions {
  const name = (field: string) => `${prefix}${field}`;
  if (options.rate !== undefined) positive(name('rate'), options.rate);
  if (options.burst !== undefined) {
    positive(name('burst'), options.burst);
    if (options.rate === undefined) invalid(name('burst'), 'set together with `rate`', options.burst);
    if (costsOne && options.burst < 1)
      invalid(name('burst'), 'at least 1: without a `cost` option every call costs 1 request', options.burst);
  }
  if (options.rate !== undefined)
    finiteRefill(name('rate'), { rate: options.rate, burst: options.burst ?? defaultBurst(options.rate) });
  oneOf(name('quota'), options.quota, ['spend', 'spread'] as const);
  if (options.maxConcurrent !== Number.POSITIVE_INFINITY)
    nonNegativeInteger(name('maxConcurrent'), options.maxConcurrent);
  if (options.maxConcurrent === 0) invalid(name('maxConcurrent'), 'at least 1', 0);
  nonNegativeInteger(name('maxQueue'), options.maxQueue);
  if (options.maxQueue === 0)
    invalid(name('maxQueue'), 'at least 1 (to bound how long calls wait, set `deadlineMs`)', 0);
  nonNegativeInteger(name('retries'), options.retries);
  nonNegative(name('maxRetryAfterMs'), options.maxRetryAfterMs);
  validateBackoff(options.backoff, name('backoff'));
  validateRetryBudget(options.retryBudget, name('retryBudget'));
  oneOf(name('onBudgetExhausted'), options.onBudgetExhausted, ['return', 'throw'] as const);
  if (options.timeoutMs !== undefined) positive(name('timeoutMs'), options.timeoutMs);
  if (options.deadlineMs !== undefined) positive(name('deadlineMs'), options.deadlineMs);
  positiveInteger(name('expectedWorkers'), options.expectedWorkers);
  return options;
}

/** Merges and validates client options at construction. */
export function resolveClientOptions(options: ClientOptions = {}): ResolvedClientOptions {
  if (typeof options !== 'object' || options === null) invalid('options', 'an object', options);
  const profile = oneOf('profile', options.profile ?? 'default', ['default', 'batch'] as const);
  const {
    fetch,
    key,
    hosts,
    policyFor,
    cost,
    settleCost,
    clock,
    random,
    store,
    profile: _profile,
    ...keyOptions
  } = options;
  const base = withDefaults(
    withDefaults(defaultKeyOptions, profile === 'batch' ? batchProfile : {}),
    keyOptions,
  );
  const costsOne = cost === undefined;
  validateKeyOptions(base, '', costsOne);
  if (fetch !== undefined) func('fetch', fetch);
  if (key !== undefined) func('key', key);
  if (policyFor !== undefined) func('policyFor', policyFor);
  const hostOptions = new Map<string, KeyOptions>();
  if (hosts !== undefined) {
    if (typeof hosts !== 'object' || hosts === null)
      invalid('hosts', 'an object of host names to key options', hosts);
    for (const [host, overrides] of Object.entries(hosts)) {
      const prefix = `hosts[${JSON.stringify(host)}].`;
      if (typeof overrides !== 'object' || overrides === null)
        invalid(prefix.slice(0, -1), 'an object', overrides);
      hostOptions.set(
        hostEntryName(host, prefix.slice(0, -1)),
        validateKeyOptions(withDefaults(base, overrides, prefix), prefix, costsOne),
      );
    }
  }
  if (cost !== undefined) func('cost', cost);
  if (settleCost !== undefined) func('settleCost', settleCost);
  if (random !== undefined) func('random', random);
  if (clock !== undefined) clockOption('clock', clock);
  if (store !== undefined) {
    if (
      typeof store?.reserve !== 'function' ||
      typeof store.holdGate !== 'function' ||
      typeof store.gateWait !== 'function'
    ) {
      invalid('store', 'a RateLimitStore (e.g. redisStore from headway/redis)', store);
    }
  }
  return {
    base,
    fetch,
    key,
    hosts: hostOptions,
    policyFor,
    cost,
    settleCost,
    store,
    clock: clock ?? systemClock,
    random: random ?? Math.random,
  };
}

/**
 * A `hosts` entry's name as a request's URL spells its host (`URL#host`): lower case, an IDN in
 * punycode, a port without leading zeros — so `'Bücher.example:0443'` names
 * `https://xn--bcher-kva.example:443`. A name that is not a host (a URL, a path) is refused: it
 * would never match a request.
 */
function hostEntryName(entry: string, option: string): string {
  const expected = "a host name, optionally with ':port' ('api.github.com', 'localhost:8080', '[::1]:8080')";
  if (/[/?#@\\\s]/.test(entry) || entry === '') invalid(option, expected, entry);
  let url: URL;
  try {
    url = new URL(`http://${entry}`);
  } catch {
    invalid(option, expected, entry);
  }
  // Read the port from the entry itself: the URL drops `:80`, the default port of its scheme.
  const port = /:(\d+)$/.exec(entry);
  return port === null ? url.hostname : `${url.hostname}:${Number(port[1])}`;
}

/** Default ports, which `URL#host` leaves out: an entry `'host:443'` still names `https://host/`. */
const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** The `hosts` entry spelled with `url`'s default port, when its port is the default one. */
function defaultPortEntry(hosts: ReadonlyMap<string, KeyOptions>, url: URL): KeyOptions | undefined {
  const port = url.port === '' ? DEFAULT_PORTS[url.protocol] : undefined;
  return port === undefined ? undefined : hosts.get(`${url.hostname}:${port}`);
}

/**
 * Options of one key, the one place that resolves them: the client's, overridden by the `hosts`
 * entry of `url` (its first request), overridden by `policyFor(key)`, validated.
 */
export function keyOptionsFor(resolved: ResolvedClientOptions, key: string, url: URL): KeyOptions {
  const { hosts } = resolved;
  const hostOptions =
    hosts.size === 0
      ? resolved.base
      : // The entry with the port first: `'host:443'` wins over `'host'` for `https://host/` too.
        (defaultPortEntry(hosts, url) ?? hosts.get(url.host) ?? hosts.get(url.hostname) ?? resolved.base);
  const overrides = resolved.policyFor?.(key);
  if (
    overrides !== undefined &&
    (typeof overrides !== 'object' || overrides === null || isThenable(overrides))
  ) {
    ignoreRejection(overrides);
    invalid(`policyFor(${JSON.stringify(key)})`, 'key options or undefined (not a promise)', overrides);
  }
  const where = `policyFor(${JSON.stringify(key)}).`;
  const options = overrides
    ? validateKeyOptions(withDefaults(hostOptions, overrides, where), where, resolved.cost === undefined)
    : hostOptions;
  return options;
}

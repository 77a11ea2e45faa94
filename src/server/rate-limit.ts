import { checkCost } from '../core/algorithms/cost.js';
import { ignoreRejection } from '../core/ignore-rejection.js';
import { invalid } from '../core/validate.js';
import { type HeadwayError, isHeadwayError, StoreError } from '../errors.js';
import type { Decision } from '../stores/store.js';
import { answerOf } from './answer.js';
import { defaultKeyOf } from './default-key.js';
import { MetricsRecorder, type RateLimitMetrics } from './metrics.js';
import type { RateLimitOptions } from './options.js';
import type { LimitOutcome } from './outcome.js';
import { type Policy, type ResolvedPolicy, resolvePolicy } from './policy.js';
import type { ClientInfo, LimitRequest } from './request.js';
import { callStore } from './store-call.js';
import { validateOptions } from './validate-options.js';

/** A rate limiter: decides per request and reports what it did. */
export interface RateLimiter {
  /** Decides for one request: take its cost from its key's quota, and say how to answer. */
  check(request: LimitRequest, info?: ClientInfo): Promise<LimitOutcome>;
  /** Counters since creation (see {@link RateLimitMetrics}). */
  metrics(): RateLimitMetrics;
}

/**
 * True for what a store must answer: `allowed`, a positive finite `limit`, and finite `remaining`,
 * `resetMs` and `retryAfterMs`, the wait not negative (the headers are written from them).
 */
function isDecision(value: unknown): value is Decision {
  const d = value as Decision | null | undefined;
  return (
    typeof d?.allowed === 'boolean' &&
    d.limit > 0 &&
    Number.isFinite(d.limit) &&
    Number.isFinite(d.remaining) &&
    Number.isFinite(d.resetMs) &&
    d.retryAfterMs >= 0 &&
    Number.isFinite(d.retryAfterMs)
  );
}

/** A decision that may already be made: a value when nothing on the way was asynchronous. */
export type Maybe<T> = T | Promise<T>;

/** True for a promise (or any thenable) rather than a value. */
export const isPromise = <T>(value: Maybe<T>): value is Promise<T> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

/** `check`, answering without a promise when it can (see {@link deciderOf}). */
export type Decider = (request: LimitRequest, info: ClientInfo) => Maybe<LimitOutcome>;

/** The synchronous-when-possible `check` of each limiter `rateLimit` made (adapters use it). */
const deciders = new WeakMap<RateLimiter, Decider>();

/**
 * `limiter.check`, but without a promise when the limiter could decide at once (key, policy and
 * cost synchronous, an in-process store): what the adapters call, looked up once per adapter. It
 * may throw where `check` would reject. A limiter not made by `rateLimit` gets its own `check`.
 */
export function deciderOf(limiter: RateLimiter): Decider {
  return deciders.get(limiter) ?? ((request, info) => limiter.check(request, info));
}

/**
 * Where `key`'s state under `policy` lives in the store: the key itself for the policy named
 * `default`, else `<name>/<key>`, so limiters stacked on one request (a minute and a day quota)
 * sharing one store keep a state each (a name is a token: it holds no `/`).
 */
function storeKeyOf(key: string, policy: ResolvedPolicy): string {
  return policy.name === 'default' ? key : `${policy.name}/${key}`;
}

/**
 * Creates a rate limiter over Web `Request`/`Response` semantics. Options are validated here, at
 * construction (errors have code `HEADWAY_INVALID_OPTION` and say how to fix them).
 *
 * @example
 * const limiter = rateLimit({ policy: { rate: 10, burst: 20 } });
 * const outcome = await limiter.check(request, { ip });
 * if (!outcome.allowed) return refusalResponse(outcome);
 * return withRateLimitHeaders(await app(request), outcome);
 */
export function rateLimit(options?: Partial<RateLimitOptions>): RateLimiter {
  const o = validateOptions(options);
  const metrics = new MetricsRecorder(o.metricsMaxKeys, o.metricsWindowMs, o.clock);
  const resolved = new WeakMap<Policy, ResolvedPolicy>();
  const keyOf = o.key ?? defaultKeyOf(o);
  const answer = answerOf(o);
  const { store } = o;
  const observe = o.mode === 'observe';

  const resolve = (policy: Policy): ResolvedPolicy => {
    let known = resolved.get(policy);
    if (!known) {
      known = resolvePolicy(policy, o.algorithm, 'policyFor()');
      resolved.set(policy, known);
    }
    return known;
  };

  const settle = (
    key: string,
    policy: ResolvedPolicy,
    decision: Decision | undefined,
    storeError: HeadwayError | undefined,
  ): LimitOutcome => {
    if (storeError) metrics.storeError();
    const wouldRefuse = decision !== undefined && !decision.allowed;
    const failClosed = !decision && !observe && (policy.failClosed || o.onStoreError === 'closed');
    const status = failClosed ? 503 : wouldRefuse && !observe ? 429 : 200;
    if (decision) metrics.record(key, decision.allowed ? 'allowed' : observe ? 'wouldRefuse' : 'refused');
    const { headers, body } = answer(policy, decision, status);
    const outcome: LimitOutcome = {
      allowed: status === 200,
      status,
      key,
      policy,
      decision,
      wouldRefuse: wouldRefuse && observe,
      storeError,
      headers,
      body,
    };
    if (o.onDecision) {
      // A metrics hook must never break the request it observes: neither a throw nor, from an
      // `async` hook, a rejection.
      try {
        ignoreRejection(o.onDecision({ ...outcome, policy: policy.name }));
      } catch {}
    }
    return outcome;
  };

  const asStoreError = (key: string, error: unknown) =>
    isHeadwayError(error) ? error : new StoreError(key, error);

  /** A store's answer: a decision, or (anything else it resolved with) a store failure. */
  const decided = (key: string, policy: ResolvedPolicy, answer: unknown): LimitOutcome => {
    if (isDecision(answer)) return settle(key, policy, answer, undefined);
    // A `takeNow` written `async` hands back a promise: not a decision, and its rejection handled.
    ignoreRejection(answer);
    return settle(
      key,
      policy,
      undefined,
      new StoreError(key, new TypeError(`not a Decision: ${String(answer)}`)),
    );
  };

  const withPolicy = (key: string, policy: ResolvedPolicy, request: LimitRequest): Maybe<LimitOutcome> => {
    const cost = o.cost(request);
    // An `async` cost is no number (refused below): its rejection is handled.
    if (typeof cost !== 'number') ignoreRejection(cost);
    checkCost(cost, policy.limit.limit);
    const stored = storeKeyOf(key, policy);
    if (store.takeNow) {
      let decision: Decision;
      try {
        decision = store.takeNow(stored, policy.limit, cost);
      } catch (error) {
        return settle(key, policy, undefined, asStoreError(key, error));
      }
      return decided(key, policy, decision);
    }
    return callStore(key, () => store.take(stored, policy.limit, cost), o.clock, o.storeTimeoutMs).then(
      (decision) => decided(key, policy, decision),
      (error: unknown) => settle(key, policy, undefined, asStoreError(key, error)),
    );
  };

  const withKey = (key: string, request: LimitRequest): Maybe<LimitOutcome> => {
    // A `null` (a header the request lacks) would key every such client on one quota.
    if (typeof key !== 'string') invalid('key()', 'a string', key);
    if (!o.policyFor) return withPolicy(key, o.resolved, request);
    const policy = o.policyFor(key, request);
    return isPromise(policy)
      ? policy.then((p) => withPolicy(key, resolve(p), request))
      : withPolicy(key, resolve(policy), request);
  };

  const decideNow = (request: LimitRequest, info: ClientInfo): Maybe<LimitOutcome> => {
    const key = keyOf(request, info);
    return isPromise(key) ? key.then((k) => withKey(k, request)) : withKey(key, request);
  };

  const limiter: RateLimiter = {
    async check(request, info = {}) {
      return decideNow(request, info);
    },
    metrics: () => metrics.snapshot(),
  };
  deciders.set(limiter, decideNow);
  return limiter;
}

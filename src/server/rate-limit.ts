import { type HeadwayError, InvalidCostError, isHeadwayError, StoreError } from '../errors.js';
import type { Decision } from '../stores/store.js';
import { defaultKey } from './default-key.js';
import { dialects } from './headers/index.js';
import { seconds } from './headers/quota.js';
import type { HeaderList } from './headers/types.js';
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
  const metrics = new MetricsRecorder(o.metricsMaxKeys, o.metricsWindowMs);
  const resolved = new WeakMap<Policy, ResolvedPolicy>();
  const keyOf = o.key ?? ((request, info) => defaultKey(request, info, o));

  const policyOf = async (key: string, request: LimitRequest): Promise<ResolvedPolicy> => {
    if (!o.policyFor) return o.resolved;
    const policy = await o.policyFor(key, request);
    let known = resolved.get(policy);
    if (!known) {
      known = resolvePolicy(policy, o.algorithm, 'policyFor()');
      resolved.set(policy, known);
    }
    return known;
  };

  const answer = (policy: ResolvedPolicy, decision: Decision | undefined, status: 200 | 429 | 503) => {
    const wallNowMs = o.clock.wallNow();
    const headers: HeaderList = [...dialects[o.headers]({ policy, decision, wallNowMs })];
    headers.push(['Date', new Date(wallNowMs).toUTCString()]);
    if (status === 200) return { headers, body: undefined };
    const waitMs = status === 429 && decision ? decision.retryAfterMs : 1000;
    const retryAfterSeconds = Math.max(1, seconds(waitMs));
    headers.push(['Retry-After', String(retryAfterSeconds)]);
    if (o.retryAfterMsHeader) headers.push(['retry-after-ms', String(Math.ceil(waitMs))]);
    const error = status === 429 ? 'rate_limited' : 'rate_limiter_unavailable';
    return { headers, body: JSON.stringify({ error, retryAfterSeconds, policy: policy.name }) };
  };

  return {
    async check(request, info = {}) {
      const key = await keyOf(request, info);
      const policy = await policyOf(key, request);
      const cost = o.cost(request);
      if (!(Number.isFinite(cost) && cost > 0 && cost <= policy.limit.limit)) {
        throw new InvalidCostError(cost, policy.limit.limit);
      }
      let decision: Decision | undefined;
      let storeError: HeadwayError | undefined;
      try {
        decision = await callStore(
          key,
          () => o.store.take(key, policy.limit, cost),
          o.clock,
          o.storeTimeoutMs,
        );
      } catch (error) {
        storeError = isHeadwayError(error) ? error : new StoreError(key, error);
        metrics.storeError();
      }
      const observe = o.mode === 'observe';
      const wouldRefuse = decision !== undefined && !decision.allowed;
      const failClosed = !decision && !observe && (policy.failClosed || o.onStoreError === 'closed');
      const status = failClosed ? 503 : wouldRefuse && !observe ? 429 : 200;
      if (decision)
        metrics.record(
          key,
          decision.allowed ? 'allowed' : observe ? 'wouldRefuse' : 'refused',
          o.clock.now(),
        );
      const outcome: LimitOutcome = {
        allowed: status === 200,
        status,
        key,
        policy,
        decision,
        wouldRefuse: wouldRefuse && observe,
        storeError,
        ...answer(policy, decision, status),
      };
      try {
        o.onDecision?.({ ...outcome, policy: policy.name });
      } catch {
        // A metrics hook must never break the request it observes.
      }
      return outcome;
    },
    metrics: () => metrics.snapshot(o.clock.now()),
  };
}

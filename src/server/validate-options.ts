import { algorithmNames } from '../core/algorithms/index.js';
import {
  clockOption,
  func,
  invalid,
  nonNegativeInteger,
  oneOf,
  positive,
  positiveInteger,
  withDefaults,
} from '../core/validate.js';
import { memoryStore } from '../stores/memory.js';
import type { RateLimitStore } from '../stores/store.js';
import { dialectNames } from './headers/index.js';
import { type RateLimitOptions, rateLimitDefaults } from './options.js';
import { type ResolvedPolicy, resolvePolicy } from './policy.js';

/** Options after defaults and validation. */
export type ValidOptions = RateLimitOptions & { store: RateLimitStore; resolved: ResolvedPolicy };

/** Merges `options` over the defaults and validates every field, eagerly. */
export function validateOptions(options: Partial<RateLimitOptions> | undefined): ValidOptions {
  const o = withDefaults(rateLimitDefaults, options);
  if (o.key !== undefined) func('key', o.key);
  if (o.policyFor !== undefined) func('policyFor', o.policyFor);
  if (o.onDecision !== undefined) func('onDecision', o.onDecision);
  func('cost', o.cost);
  nonNegativeInteger('trustProxy', o.trustProxy);
  if (positiveInteger('ipv6Prefix', o.ipv6Prefix) > 128)
    invalid('ipv6Prefix', 'an integer from 1 to 128', o.ipv6Prefix);
  oneOf('algorithm', o.algorithm, algorithmNames);
  oneOf('headers', o.headers, dialectNames);
  oneOf('mode', o.mode, ['enforce', 'observe'] as const);
  oneOf('onStoreError', o.onStoreError, ['open', 'closed'] as const);
  if (typeof o.retryAfterMsHeader !== 'boolean')
    invalid('retryAfterMsHeader', 'true or false', o.retryAfterMsHeader);
  positive('storeTimeoutMs', o.storeTimeoutMs);
  positive('metricsWindowMs', o.metricsWindowMs);
  positiveInteger('metricsMaxKeys', o.metricsMaxKeys);
  clockOption('clock', o.clock);
  const store = o.store ?? memoryStore({ clock: o.clock });
  if (typeof store.take !== 'function') invalid('store', 'a RateLimitStore (with `take`)', store);
  const resolved = resolvePolicy(o.policy, o.algorithm);
  // A request costs 1 unit unless `cost` says otherwise: a policy of less would refuse every one.
  if (o.cost === rateLimitDefaults.cost && resolved.limit.limit < 1) {
    const burst = o.policy.rate !== undefined;
    invalid(
      burst ? 'policy.burst' : 'policy.limit',
      'at least 1 (each request costs 1 unit; give `cost` to count in smaller units)',
      burst ? o.policy.burst : o.policy.limit,
    );
  }
  return { ...o, store, resolved };
}

import { type Clock, systemClock } from '../core/clock.js';
import type { AlgorithmName, RateLimitStore } from '../stores/store.js';
import type { HeaderDialect } from './headers/types.js';
import type { LimitOutcome } from './outcome.js';
import type { Policy } from './policy.js';
import type { ClientInfo, LimitRequest } from './request.js';

/** What `onDecision` receives for every checked request. */
export type DecisionEvent = Pick<
  LimitOutcome,
  'key' | 'allowed' | 'wouldRefuse' | 'decision' | 'storeError' | 'status'
> & { policy: string };

/** Options of `rateLimit`. Every field is optional; `undefined` means the default. */
export interface RateLimitOptions {
  /**
   * The key a quota belongs to. @default the API key (bearer token or `X-API-Key`, SHA-256 hashed)
   * as `key:<hash>`, else the client IP as `ip:<address>` (see `trustProxy`, `ipv6Prefix`)
   */
  key: ((request: LimitRequest, info: ClientInfo) => string | Promise<string>) | undefined;
  /** Proxy hops of `X-Forwarded-For` to trust for the client IP; 0 ignores the header. @default 0 */
  trustProxy: number;
  /** IPv6 clients are grouped by this network prefix (bits). @default 56 */
  ipv6Prefix: number;
  /** The policy of every key (unless `policyFor` is given). @default { limit: 60, windowMs: 60_000 } */
  policy: Policy;
  /** Per-key tiers: the policy of `key`, e.g. by plan. @default undefined (use `policy`) */
  policyFor: ((key: string, request: LimitRequest) => Policy | Promise<Policy>) | undefined;
  /** Units a request costs (≤ the policy's limit/burst). @default () => 1 */
  cost: (request: LimitRequest) => number;
  /** The limiting algorithm. @default 'token-bucket' */
  algorithm: AlgorithmName;
  /** Header dialect sent on every response. @default 'ietf' */
  headers: HeaderDialect;
  /** Also send `retry-after-ms` (exact) on refusal. @default false */
  retryAfterMsHeader: boolean;
  /** `observe` refuses nothing but counts and reports what it would refuse. @default 'enforce' */
  mode: 'enforce' | 'observe';
  /** Where the quotas live. @default memoryStore({ clock }) */
  store: RateLimitStore | undefined;
  /** Longest wait for the store before answering as `onStoreError` says. @default 100 */
  storeTimeoutMs: number;
  /** When the store fails or times out: admit (`open`) or answer 503 (`closed`). @default 'open' */
  onStoreError: 'open' | 'closed';
  /** Called after every decision (keep it fast; errors it throws are ignored). @default undefined */
  onDecision: ((event: DecisionEvent) => void) | undefined;
  /** Clock of timeouts, metrics and the `Date` header. @default systemClock */
  clock: Clock;
  /** Window of the `refusedKeys` metric, in ms. @default 60_000 */
  metricsWindowMs: number;
  /** Most keys tracked by the metrics. @default 1_000 */
  metricsMaxKeys: number;
}

/** The defaults of {@link RateLimitOptions}, written once. */
export const rateLimitDefaults: RateLimitOptions = {
  key: undefined,
  trustProxy: 0,
  ipv6Prefix: 56,
  policy: { limit: 60, windowMs: 60_000 },
  policyFor: undefined,
  cost: () => 1,
  algorithm: 'token-bucket',
  headers: 'ietf',
  retryAfterMsHeader: false,
  mode: 'enforce',
  store: undefined,
  storeTimeoutMs: 100,
  onStoreError: 'open',
  onDecision: undefined,
  clock: systemClock,
  metricsWindowMs: 60_000,
  metricsMaxKeys: 1_000,
};

import { seconds, wholeUnits } from './quota.js';
import type { HeaderInput, HeaderList } from './types.js';

/**
 * The de facto `X-RateLimit-*` family, GitHub style: `X-RateLimit-Limit`, `X-RateLimit-Remaining`,
 * `X-RateLimit-Used` and `X-RateLimit-Reset` as **epoch seconds** (rounded up) of the reset.
 */
export function xRateLimitHeaders({ policy, decision, wallNowMs }: HeaderInput): HeaderList {
  if (!decision) return [['X-RateLimit-Limit', String(wholeUnits(policy.limit.limit))]];
  const limit = wholeUnits(decision.limit);
  return [
    ['X-RateLimit-Limit', String(limit)],
    ['X-RateLimit-Remaining', String(decision.remaining)],
    ['X-RateLimit-Used', String(Math.max(0, limit - decision.remaining))],
    ['X-RateLimit-Reset', String(seconds(wallNowMs + decision.resetMs))],
  ];
}

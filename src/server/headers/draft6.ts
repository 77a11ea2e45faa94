import { policyField } from './draft-policy.js';
import { seconds, wholeUnits } from './quota.js';
import type { HeaderInput, HeaderList } from './types.js';

/**
 * draft-ietf-httpapi-ratelimit-headers-06 and earlier: separate `RateLimit-Limit`,
 * `RateLimit-Remaining`, `RateLimit-Reset` (delta seconds), plus `RateLimit-Policy: 100;w=60`.
 * Without a decision (the store failed) only the policy: the drafts allow `RateLimit-Limit` only
 * beside `RateLimit-Reset`.
 */
export function draft6Headers({ policy, decision }: HeaderInput): HeaderList {
  if (!decision) return [['RateLimit-Policy', policyField(policy)]];
  return [
    ['RateLimit-Limit', String(wholeUnits(decision.limit))],
    ['RateLimit-Remaining', String(decision.remaining)],
    ['RateLimit-Reset', String(seconds(decision.resetMs))],
    ['RateLimit-Policy', policyField(policy)],
  ];
}

import { policyField } from './draft-policy.js';
import { seconds, wholeUnits } from './quota.js';
import type { HeaderInput, HeaderList } from './types.js';

/**
 * draft-ietf-httpapi-ratelimit-headers-06 and earlier: separate `RateLimit-Limit`,
 * `RateLimit-Remaining`, `RateLimit-Reset` (delta seconds), plus `RateLimit-Policy: 100;w=60`.
 */
export function draft6Headers({ policy, decision }: HeaderInput): HeaderList {
  const headers: HeaderList = [
    ['RateLimit-Limit', String(wholeUnits(decision?.limit ?? policy.limit.limit))],
  ];
  if (decision) {
    headers.push(['RateLimit-Remaining', String(decision.remaining)]);
    headers.push(['RateLimit-Reset', String(seconds(decision.resetMs))]);
  }
  headers.push(['RateLimit-Policy', policyField(policy)]);
  return headers;
}

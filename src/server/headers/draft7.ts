import { policyField } from './draft-policy.js';
import { seconds, wholeUnits } from './quota.js';
import type { HeaderInput, HeaderList } from './types.js';

/**
 * draft-ietf-httpapi-ratelimit-headers-07: one Dictionary,
 * `RateLimit: limit=100, remaining=50, reset=5` (reset in delta seconds), plus
 * `RateLimit-Policy: 100;w=60`.
 */
export function draft7Headers({ policy, decision }: HeaderInput): HeaderList {
  const headers: HeaderList = [];
  if (decision) {
    headers.push([
      'RateLimit',
      `limit=${wholeUnits(decision.limit)}, remaining=${decision.remaining}, reset=${seconds(decision.resetMs)}`,
    ]);
  }
  headers.push(['RateLimit-Policy', policyField(policy)]);
  return headers;
}

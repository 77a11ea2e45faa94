import { quotaOf, seconds } from './quota.js';
import type { HeaderInput, HeaderList } from './types.js';

/**
 * draft-ietf-httpapi-ratelimit-headers (08 and later), structured fields:
 * `RateLimit-Policy: "default";q=100;w=60` and `RateLimit: "default";r=50;t=30`, where `r` is the
 * whole units left and `t` the seconds until `r` is back to the full quota (rounded up).
 */
export function ietfHeaders({ policy, decision }: HeaderInput): HeaderList {
  const { q, w } = quotaOf(policy.limit);
  const headers: HeaderList = [['RateLimit-Policy', `"${policy.name}";q=${q};w=${w}`]];
  if (decision) {
    headers.push(['RateLimit', `"${policy.name}";r=${decision.remaining};t=${seconds(decision.resetMs)}`]);
  }
  return headers;
}

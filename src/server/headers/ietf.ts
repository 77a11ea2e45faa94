import { perPolicy } from './per-policy.js';
import { quotaOf, seconds } from './quota.js';
import type { HeaderInput, HeaderList } from './types.js';

/** `RateLimit-Policy` and the start of `RateLimit`: the policy's alone. */
const fieldsOf = perPolicy((policy) => {
  const { q, w } = quotaOf(policy.limit);
  return { policy: `"${policy.name}";q=${q};w=${w}`, remaining: `"${policy.name}";r=` };
});

/**
 * draft-ietf-httpapi-ratelimit-headers (08 and later), structured fields:
 * `RateLimit-Policy: "default";q=100;w=60` and `RateLimit: "default";r=50;t=30`, where `r` is the
 * whole units left and `t` the seconds until `r` is back to the full quota (rounded up).
 */
export function ietfHeaders({ policy, decision }: HeaderInput): HeaderList {
  const fields = fieldsOf(policy);
  const headers: HeaderList = [['RateLimit-Policy', fields.policy]];
  if (decision)
    headers.push(['RateLimit', `${fields.remaining}${decision.remaining};t=${seconds(decision.resetMs)}`]);
  return headers;
}

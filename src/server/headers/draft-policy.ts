import { perPolicy } from './per-policy.js';
import { quotaOf } from './quota.js';

/** `RateLimit-Policy` of draft-6 and draft-7: `100;w=60` (the quota and its window in seconds). */
export const policyField = perPolicy((policy) => {
  const { q, w } = quotaOf(policy.limit);
  return `${q};w=${w}`;
});

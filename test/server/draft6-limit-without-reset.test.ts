/**
 * README `headers: 'draft-6'` writes the separate fields of drafts 03–06, whose Server Behavior
 * section (still carried in draft-07 §4) reads: "A response that includes the RateLimit-Limit
 * header field MUST also include the RateLimit-Reset". README "Options": when the store fails
 * "only the policy headers are sent".
 *
 * So when the store fails (open: 200; closed: 503), `draft6Headers` writes the policy alone, not a
 * `RateLimit-Limit` with no `RateLimit-Reset` (a field the draft forbids alone).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import type { RateLimitStore } from '../../src/stores/store.js';

const failing: RateLimitStore = {
  take: () => Promise.reject(new Error('ECONNREFUSED')),
  reserve: () => Promise.reject(new Error('ECONNREFUSED')),
  holdGate: () => Promise.reject(new Error('ECONNREFUSED')),
  gateWait: () => Promise.reject(new Error('ECONNREFUSED')),
};

describe('draft-6 headers when the store fails', () => {
  it.each(['open', 'closed'] as const)(
    'store error, %s: no RateLimit-Limit without RateLimit-Reset',
    async (onStoreError) => {
      const limiter = rateLimit({
        clock: new ManualClock(),
        store: failing,
        headers: 'draft-6',
        onStoreError,
      });
      const outcome = await limiter.check(new Request('http://api.test/'), { ip: '192.0.2.1' });
      expect(outcome.storeError).toBeDefined();
      const names = outcome.headers.map(([name]) => name);
      const limitWithoutReset = names.includes('RateLimit-Limit') && !names.includes('RateLimit-Reset');
      expect(limitWithoutReset).toBe(false);
    },
  );
});

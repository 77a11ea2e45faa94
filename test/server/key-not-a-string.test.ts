import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import type { LimitRequest } from '../../src/server/request.js';

const req = (headers: Record<string, string> = {}) => new Request('http://api.test/', { headers });

/**
 * README "Options": `key` is `(request, { ip }) => string | Promise<string>`. What `policyFor` and
 * `cost` return is checked per request (a typed `HEADWAY_INVALID_OPTION` naming `policyFor()`, a
 * typed `HEADWAY_INVALID_COST`); what `key` returns is not, so a key function that answers
 * `null` — e.g. `(r) => r.headers.get('x-tenant')` for a request without the header — silently
 * puts every such client in one quota named `null`, and one that answers an object gives every
 * request a fresh quota in the memory store (never refused).
 */
describe('a key function that returns something other than a string', () => {
  it('rejects with a typed HeadwayError instead of keying the quota on `null`', async () => {
    const limiter = rateLimit({
      clock: new ManualClock(),
      key: (r: LimitRequest) => r.headers.get('x-tenant') as string,
    });
    const settled = await limiter.check(req()).then(
      (outcome) => ({ resolvedWithKey: outcome.key as unknown }),
      (error: unknown) => ({ typedError: isHeadwayError(error) }),
    );
    expect(settled).toEqual({ typedError: true });
  });

  it('never admits past the limit because the key is an object', async () => {
    const limiter = rateLimit({
      clock: new ManualClock(),
      policy: { limit: 1 },
      key: () => ({ tenant: 'a' }) as unknown as string,
    });
    const answers = await Promise.allSettled([limiter.check(req()), limiter.check(req())]);
    const statuses = answers.map((a) => (a.status === 'fulfilled' ? a.value.status : 'rejected'));
    expect(statuses).not.toEqual([200, 200]);
  });
});

/**
 * Zendesk: "The following response headers contain the account's rate limit and the number of
 * requests remaining for the current minute: `X-Rate-Limit: 700`, `X-Rate-Limit-Remaining: 699`"
 * (https://developer.zendesk.com/documentation/api-basics/best-practices/best-practices-for-avoiding-rate-limiting/).
 * The README reads `X-Rate-Limit-*` as an alias of `X-RateLimit-*`, and `null` means "the server
 * did not say"; but Zendesk's limit field has no `-Limit` suffix, is never kept, and every Zendesk
 * answer outside the list endpoints reads as a window of unknown size.
 */
import { describe, expect, it } from 'vitest';
import { read } from './helpers.js';

describe('Zendesk: X-Rate-Limit is the limit', () => {
  it('reads the documented pair as 699 of 700', () => {
    const signal = read(200, { 'X-Rate-Limit': '700', 'X-Rate-Limit-Remaining': '699' });
    expect(signal).toMatchObject({ dialect: 'x-ratelimit', remaining: 699 });
    expect(signal.limit).toBe(700);
  });
});

/**
 * README "Joined field lines (`a, b`): every member must be valid; the largest `Retry-After` and
 * reset win, the smallest limit and remaining" (rule 3). Every counter family follows it, but
 * Shopify's `X-Shopify-Shop-Api-Call-Limit` (https://shopify.dev/docs/api/usage/limits, `32/40`)
 * is matched as one `used/limit` pair only: the same field twice (a proxy that repeats it, a
 * `Headers` object with the line appended) drops the whole window.
 */
import { describe, expect, it } from 'vitest';
import { read } from './helpers.js';

describe('Shopify: X-Shopify-Shop-Api-Call-Limit on two field lines', () => {
  it('two identical lines read as one', () => {
    const signal = read(200, { 'X-Shopify-Shop-Api-Call-Limit': ['39/40', '39/40'] });
    expect(signal).toMatchObject({ dialect: 'shopify', limit: 40, remaining: 1 });
  });

  it('two differing lines: the smallest remaining wins', () => {
    const headers = new Headers();
    headers.append('X-Shopify-Shop-Api-Call-Limit', '32/40');
    headers.append('X-Shopify-Shop-Api-Call-Limit', '38/40');
    const signal = read(429, headers);
    expect(signal).toMatchObject({ dialect: 'shopify', limit: 40, remaining: 2 });
  });
});

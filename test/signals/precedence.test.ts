import { describe, expect, it } from 'vitest';
import type { HeaderRecord, RateLimitDialect } from '../../src/index.js';
import { read } from './helpers.js';

const ietf = { 'RateLimit-Policy': '"default";q=100;w=60', RateLimit: '"default";r=1;t=1' };
const draft7 = { RateLimit: 'limit=200, remaining=2, reset=2' };
const draft6 = { 'RateLimit-Limit': '300', 'RateLimit-Remaining': '3', 'RateLimit-Reset': '3' };
const anthropic = {
  'anthropic-ratelimit-requests-limit': '400',
  'anthropic-ratelimit-requests-remaining': '4',
};
const openai = { 'x-ratelimit-limit-requests': '500', 'x-ratelimit-remaining-requests': '5' };
const discord = { 'x-ratelimit-reset-after': '6' };
const shopify = { 'x-shopify-shop-api-call-limit': '33/40' };
const xRateLimit = { 'x-ratelimit-limit': '800', 'x-ratelimit-remaining': '8', 'x-ratelimit-reset': '8' };

describe('precedence: IETF > draft-7 > draft-6 > vendors > X-RateLimit', () => {
  it.each<[string, HeaderRecord, RateLimitDialect, number]>([
    ['IETF over everything', { ...xRateLimit, ...openai, ...draft6, ...ietf }, 'ietf', 1],
    ['draft-7 over draft-6', { ...draft6, ...draft7 }, 'draft-7', 2],
    ['draft-6 over vendors', { ...openai, ...anthropic, ...draft6 }, 'draft-6', 3],
    ['Anthropic over OpenAI', { ...openai, ...anthropic }, 'anthropic', 4],
    ['OpenAI over X-RateLimit', { ...xRateLimit, ...openai }, 'openai', 5],
    ['Discord over X-RateLimit (Discord speaks it)', { ...xRateLimit, ...discord }, 'discord', 8],
    ['Shopify over X-RateLimit', { ...xRateLimit, ...shopify }, 'shopify', 7],
    ['X-RateLimit last', xRateLimit, 'x-ratelimit', 8],
    ['a broken IETF field falls through', { ...xRateLimit, RateLimit: '"default";r=-1' }, 'x-ratelimit', 8],
    [
      'draft-6 with an Integer-item RateLimit-Policy stays draft-6',
      { ...draft6, 'RateLimit-Policy': '300;w=60' },
      'draft-6',
      3,
    ],
  ])('%s', (_what, headers, dialect, remaining) => {
    expect(read(200, headers)).toMatchObject({ dialect, remaining });
  });
});

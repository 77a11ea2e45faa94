import { describe, expect, it } from 'vitest';
import type { HeaderRecord, RateLimitDialect, RateLimitSignal } from '../../src/index.js';
import { AT, read } from './helpers.js';

const iso = (seconds: number): string => new Date(AT + seconds * 1000).toISOString();

const openai = {
  'x-ratelimit-limit-requests': '60',
  'x-ratelimit-limit-tokens': '150000',
  'x-ratelimit-remaining-requests': '59',
  'x-ratelimit-remaining-tokens': '149984',
  'x-ratelimit-reset-requests': '1s',
  'x-ratelimit-reset-tokens': '6m0s',
};

const anthropic = {
  'anthropic-ratelimit-requests-limit': '50',
  'anthropic-ratelimit-requests-remaining': '49',
  'anthropic-ratelimit-requests-reset': iso(1.5),
  'anthropic-ratelimit-tokens-limit': '100000',
  'anthropic-ratelimit-tokens-remaining': '99000',
  'anthropic-ratelimit-tokens-reset': iso(10),
  'anthropic-ratelimit-input-tokens-limit': '80000',
  'anthropic-ratelimit-input-tokens-remaining': '0',
  'anthropic-ratelimit-input-tokens-reset': iso(20),
  'anthropic-ratelimit-output-tokens-limit': '20000',
  'anthropic-ratelimit-output-tokens-remaining': '19000',
  'anthropic-ratelimit-output-tokens-reset': iso(5),
};

type Expected = Partial<Omit<RateLimitSignal, 'policies'>> & {
  dialect: RateLimitDialect;
  windows?: string[];
};

describe('rule 10: vendor families map onto the same values', () => {
  it.each<[string, number, HeaderRecord, Expected]>([
    [
      'OpenAI',
      200,
      openai,
      { dialect: 'openai', limit: 60, remaining: 59, resetInMs: 1_000, windows: ['requests', 'tokens'] },
    ],
    [
      'OpenAI, upper case names',
      200,
      Object.fromEntries(Object.entries(openai).map(([k, v]) => [k.toUpperCase(), v])),
      { dialect: 'openai', limit: 60, remaining: 59, resetInMs: 1_000 },
    ],
    [
      'OpenAI, tokens only',
      200,
      { 'x-ratelimit-remaining-tokens': '5', 'x-ratelimit-reset-tokens': '1m30.5s' },
      { dialect: 'openai', remaining: 5, resetInMs: 90_500, windows: ['tokens'] },
    ],
    [
      'OpenAI 429 with retry-after-ms',
      429,
      { ...openai, 'retry-after-ms': '250' },
      { dialect: 'openai', retryAfterMs: 250 },
    ],
    [
      'Anthropic',
      200,
      anthropic,
      {
        dialect: 'anthropic',
        limit: 50,
        remaining: 49,
        resetInMs: 1_500,
        windows: ['requests', 'tokens', 'input-tokens', 'output-tokens'],
      },
    ],
    [
      'Anthropic 429: the exhausted input-token window',
      429,
      anthropic,
      { dialect: 'anthropic', retryAfterMs: 20_000 },
    ],
    [
      'Anthropic 429 with Retry-After',
      429,
      { ...anthropic, 'retry-after': '7' },
      { dialect: 'anthropic', retryAfterMs: 7_000 },
    ],
    [
      'Discord',
      429,
      {
        'X-RateLimit-Limit': '5',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': '1470173023.123',
        'X-RateLimit-Reset-After': '64.57',
        'X-RateLimit-Bucket': 'abcd1234',
      },
      { dialect: 'discord', limit: 5, remaining: 0, resetInMs: 64_570, retryAfterMs: 64_570 },
    ],
    [
      'Discord, Reset-After alone',
      200,
      { 'X-RateLimit-Reset-After': '1' },
      { dialect: 'discord', resetInMs: 1_000 },
    ],
    [
      'Discord, invalid Reset-After falls back to Reset',
      200,
      { 'X-RateLimit-Reset-After': 'soon', 'X-RateLimit-Reset': String(AT / 1000 + 3) },
      { dialect: 'discord', resetInMs: 3_000 },
    ],
    [
      'Shopify',
      200,
      { 'X-Shopify-Shop-Api-Call-Limit': '32/40' },
      { dialect: 'shopify', limit: 40, remaining: 8, resetInMs: null },
    ],
    [
      'Shopify, full bucket',
      429,
      { 'X-Shopify-Shop-Api-Call-Limit': '40/40', 'Retry-After': '2.0' },
      { dialect: 'shopify', remaining: 0, retryAfterMs: 2_000 },
    ],
    [
      'Shopify, over the limit clamps',
      200,
      { 'X-Shopify-Shop-Api-Call-Limit': '45/40' },
      { dialect: 'shopify', remaining: 0 },
    ],
    ['Shopify, malformed', 200, { 'X-Shopify-Shop-Api-Call-Limit': '32 of 40' }, { dialect: 'none' }],
    [
      'GitHub',
      200,
      {
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(AT / 1000 + 60),
      },
      { dialect: 'x-ratelimit', resetInMs: 60_000 },
    ],
    ['Retry-After only', 503, { 'Retry-After': '120' }, { dialect: 'retry-after', retryAfterMs: 120_000 }],
    [
      'nothing',
      200,
      { 'content-type': 'application/json' },
      { dialect: 'none', limit: null, remaining: null, resetInMs: null, resetAtMs: null, retryAfterMs: null },
    ],
  ])('%s', (_what, status, headers, { windows, ...expected }) => {
    const signal = read(status, headers);
    expect(signal).toMatchObject(expected);
    if (windows) expect(signal.policies.map((p) => p.name)).toEqual(windows);
  });

  it('keeps units and the Discord bucket', () => {
    const discord = read(200, { 'X-RateLimit-Reset-After': '1', 'X-RateLimit-Bucket': 'abcd1234' });
    expect(discord.policies[0]).toMatchObject({ unit: 'requests', partitionKey: 'abcd1234' });
    const tokens = read(200, openai).policies[1];
    expect(tokens).toEqual({
      name: 'tokens',
      quota: 150000,
      windowMs: null,
      remaining: 149984,
      resetInMs: 360_000,
      partitionKey: null,
      unit: 'tokens',
    });
  });
});

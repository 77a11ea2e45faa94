/**
 * `RateLimitPolicy.partitionKey` is the IETF `pk`, a Byte Sequence: its value is bytes, reported
 * as canonical base64. The drafts' own examples write Byte Sequences whose last base64 character
 * carries non-zero padding bits (`:cHsdsRa894==:`, `:sdfjLJUOUH==:`), which RFC 9651 §4.2.7 tells
 * parsers to accept: two spellings of the same bytes are one key, spelled one way.
 */
import { describe, expect, it } from 'vitest';
import { read } from './helpers.js';

describe('pk is reported as its bytes in canonical base64', () => {
  it.each([
    [
      'RateLimit-Policy (draft example)',
      { 'ratelimit-policy': '"peruser";q=100;w=60;pk=:cHsdsRa894==:' },
      'cHsdsRa89w==',
    ],
    [
      'RateLimit-Policy with qu (draft example)',
      { 'ratelimit-policy': '"peruser";q=65535;qu="content-bytes";w=10;pk=:sdfjLJUOUH==:' },
      'sdfjLJUOUA==',
    ],
    ['RateLimit', { ratelimit: '"default";r=50;t=30;pk=:cHsdsRa894==:' }, 'cHsdsRa89w=='],
  ] as const)('%s', (_what, headers, canonical) => {
    expect(read(200, headers).policies[0]!.partitionKey).toBe(canonical);
  });

  it('two spellings of the same bytes are the same key', () => {
    const loose = read(200, { ratelimit: '"default";r=50;t=30;pk=:cHsdsRa894==:' });
    const canonical = read(200, { ratelimit: '"default";r=50;t=30;pk=:cHsdsRa89w==:' });
    expect(loose.policies[0]!.partitionKey).toBe(canonical.policies[0]!.partitionKey);
  });
});

import { describe, expect, it } from 'vitest';
import { describeRequest, isIdempotent, isReplayable } from '../../src/client/request.js';
import { retryReason } from '../../src/client/retry-policy.js';
import { type AttemptOutcome, verdictOf } from '../../src/client/verdict.js';
import { readRateLimit } from '../../src/signals/read-rate-limit.js';

/** The outcome of a response with `status` and `headers`. */
function response(status: number, headers: Record<string, string> = {}): AttemptOutcome {
  return { kind: 'response', status, signal: readRateLimit({ status, headers }, { receivedAt: 0 }) };
}

describe('verdictOf', () => {
  it.each([
    ['200', response(200), { kind: 'answered', status: 200, retry: 'never' }],
    ['404', response(404), { kind: 'answered', status: 404, retry: 'never' }],
    ['408', response(408), { kind: 'answered', status: 408, retry: 'idempotent' }],
    ['501', response(501), { kind: 'answered', status: 501, retry: 'never' }],
    ['429 without a hint', response(429), { kind: 'limited', retryAfterMs: null, retry: 'any' }],
    ['429 + Retry-After', response(429, { 'retry-after': '2' }), { kind: 'limited', retryAfterMs: 2000 }],
    ['403 + Retry-After', response(403, { 'retry-after': '1' }), { kind: 'limited', retry: 'any' }],
    [
      '403 with remaining 0 (GitHub)',
      response(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-limit': '60', 'x-ratelimit-reset': '5' }),
      { kind: 'limited', retry: 'any' },
    ],
    ['plain 403', response(403), { kind: 'answered', status: 403, retry: 'never' }],
    ['503 + Retry-After', response(503, { 'retry-after': '1' }), { kind: 'limited', retry: 'idempotent' }],
    ['503', response(503), { kind: 'outage', status: 503, retry: 'idempotent' }],
    ['500', response(500), { kind: 'outage', status: 500 }],
    ['a network error', { kind: 'network' } as const, { kind: 'outage', status: null }],
    ['an abort', { kind: 'aborted' } as const, { kind: 'aborted' }],
  ] as const)('%s', (_name, outcome, expected) => {
    expect(verdictOf(outcome)).toMatchObject(expected);
  });
});

describe('retryReason', () => {
  it.each([
    [response(200), true, true, 'not-retryable'],
    [response(404), true, true, 'not-retryable'],
    [response(429), false, true, 'rate-limited'],
    [response(403, { 'retry-after': '1' }), false, true, 'rate-limited'],
    [response(429), true, false, 'body-not-replayable'],
    [response(503), true, true, 'server-error'],
    [response(503), false, true, 'not-idempotent'],
    [response(503, { 'retry-after': '1' }), false, true, 'not-idempotent'],
    [response(408), true, true, 'server-error'],
    [response(501), true, true, 'not-retryable'],
    [{ kind: 'network' } as const, true, true, 'network-error'],
    [{ kind: 'network' } as const, false, true, 'not-idempotent'],
    [response(502), true, false, 'body-not-replayable'],
    [{ kind: 'aborted' } as const, true, true, 'not-retryable'],
  ] as const)('%#: idempotent %s, replayable %s → %s', (outcome, idempotent, replayable, reason) => {
    expect(retryReason(verdictOf(outcome), idempotent, replayable)).toBe(reason);
  });
});
describe('requests', () => {
  it.each([
    ['GET', {}, true],
    ['HEAD', {}, true],
    ['OPTIONS', {}, true],
    ['PUT', {}, true],
    ['DELETE', {}, true],
    ['POST', {}, false],
    ['PATCH', {}, false],
    ['POST', { 'Idempotency-Key': 'abc' }, true],
    ['post', {}, false],
  ] as const)('%s with %o is idempotent: %s', (method, headers, expected) => {
    expect(isIdempotent(describeRequest('http://127.0.0.1/x', { method, headers }))).toBe(expected);
  });

  it.each([
    ['no body', undefined, true],
    ['string', 'a=1', true],
    ['bytes', new Uint8Array([1, 2]), true],
    ['ArrayBuffer', new ArrayBuffer(2), true],
    ['Blob', new Blob(['x']), true],
    ['FormData', new FormData(), true],
    ['URLSearchParams', new URLSearchParams('a=1'), true],
    ['stream', new ReadableStream(), false],
  ] as const)('a %s body is replayable: %s', (_name, body, expected) => {
    expect(isReplayable('http://127.0.0.1/x', { method: 'POST', body: body as BodyInit | undefined })).toBe(
      expected,
    );
  });

  it('treats a Request with a body as a stream', () => {
    const request = new Request('http://127.0.0.1/x', { method: 'POST', body: 'x' });
    expect(isReplayable(request, undefined)).toBe(false);
    expect(isReplayable(new Request('http://127.0.0.1/x'), undefined)).toBe(true);
  });

  it('reads method and headers from a Request, overridden by init', () => {
    const request = new Request('http://127.0.0.1:8080/a?b', { method: 'DELETE', headers: { 'x-k': '1' } });
    const described = describeRequest(request, undefined);
    expect(described.url.origin).toBe('http://127.0.0.1:8080');
    expect(described.method).toBe('DELETE');
    expect(described.headers.get('x-k')).toBe('1');
    expect(describeRequest(request, { method: 'post' }).method).toBe('POST');
  });
});

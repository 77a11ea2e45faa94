import { describe, expect, it } from 'vitest';
import { describeRequest, isIdempotent, isReplayable } from '../../src/client/request.js';
import { classify } from '../../src/client/retry-policy.js';

describe('classify', () => {
  it.each([
    [200, true, true, 'not-retryable'],
    [404, true, true, 'not-retryable'],
    [429, false, true, 'rate-limited'],
    [429, true, false, 'body-not-replayable'],
    [503, true, true, 'server-error'],
    [503, false, true, 'not-idempotent'],
    [408, true, true, 'server-error'],
    [501, true, true, 'not-retryable'],
    [0, true, true, 'network-error'],
    [0, false, true, 'not-idempotent'],
    [502, true, false, 'body-not-replayable'],
  ] as const)('status %i, idempotent %s, replayable %s → %s', (status, idempotent, replayable, reason) => {
    expect(classify(status, idempotent, replayable)).toBe(reason);
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

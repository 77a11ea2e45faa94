import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { nodeRateLimit } from '../../src/server/adapters/node.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import type { RateLimitStore } from '../../src/stores/store.js';

/** A store whose `take` resolves with `reply` instead of a `Decision` (a buggy custom store, a bad proxy). */
const answering = (reply: unknown): RateLimitStore => ({
  take: () => Promise.resolve(reply as never),
  reserve: () => new Promise(() => {}),
  holdGate: () => new Promise(() => {}),
  gateWait: () => new Promise(() => {}),
});
const req = () => new Request('http://api.test/login');

// README "Options": "When the store fails or takes longer than `storeTimeoutMs`, the request is
// admitted (open) or answered `503` with `Retry-After: 1` (closed), only the policy headers are
// sent, and `metrics().storeErrors` counts it." The Redis store already turns an unexpected reply
// into a `StoreError` (src/redis/reply.ts); the limiter must do the same for any store.
describe('a store that resolves with something that is not a decision', () => {
  for (const [label, reply] of [
    ['undefined', undefined],
    ['null', null],
    ['{}', {}],
    ['{ allowed: false } (no retryAfterMs)', { allowed: false }],
  ] as const) {
    it(`is a store failure: open answers 200 with only the policy header, counted (${label})`, async () => {
      const limiter = rateLimit({ clock: new ManualClock(), store: answering(reply) });
      const outcome = await limiter.check(req(), { ip: 'a' });
      expect(outcome).toMatchObject({ allowed: true, status: 200, decision: undefined });
      expect(outcome.storeError?.code).toBe('HEADWAY_STORE_ERROR');
      expect(outcome.headers.map(([name]) => name)).toEqual(['RateLimit-Policy', 'Date']);
      expect(limiter.metrics().storeErrors).toBe(1);
    });

    it(`is a store failure: closed answers 503 with Retry-After: 1, counted (${label})`, async () => {
      const limiter = rateLimit({
        clock: new ManualClock(),
        store: answering(reply),
        onStoreError: 'closed',
      });
      const outcome = await limiter.check(req(), { ip: 'a' });
      expect(outcome).toMatchObject({ allowed: false, status: 503 });
      expect(outcome.headers).toContainEqual(['Retry-After', '1']);
      expect(limiter.metrics().storeErrors).toBe(1);
    });
  }

  it('is answered open by nodeRateLimit (not a 500), the handler called once', async () => {
    const limiter = rateLimit({ clock: new ManualClock(), store: answering(null) });
    let calls = 0;
    const status = await new Promise<number>((resolve) => {
      const res = {
        statusCode: 200,
        headersSent: false,
        setHeader: () => res,
        writeHead(code: number) {
          res.statusCode = code;
          return res;
        },
        end: () => resolve(res.statusCode),
      };
      const request = { method: 'GET', url: '/', headers: {}, socket: { remoteAddress: '192.0.2.1' } };
      nodeRateLimit(limiter, (_req, r) => {
        calls++;
        r.end('ok');
      })(request as unknown as IncomingMessage, res as unknown as ServerResponse);
    });
    expect({ status, calls, storeErrors: limiter.metrics().storeErrors }).toEqual({
      status: 200,
      calls: 1,
      storeErrors: 1,
    });
  });
});

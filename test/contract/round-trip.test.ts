/**
 * Both halves of the contract, read by each other: whatever the reference server writes in each
 * dialect, the client's `readRateLimit` reads back exactly (no sockets: the limiter in-process).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { type HeaderDialect, quotaOf, rateLimit } from '../../src/server/index.js';
import { readRateLimit } from '../../src/signals/read-rate-limit.js';

const WALL = Date.UTC(2026, 10, 30, 12, 0, 0, 250);
const request = new Request('http://127.0.0.1/items', { headers: { 'x-api-key': 'k' } });

describe.each([
  ['token-bucket', { rate: 200, burst: 20 }],
  ['gcra', { rate: 50, burst: 5 }],
  ['fixed-window', { limit: 100, windowMs: 60_000 }],
  ['sliding-window-counter', { limit: 30, windowMs: 10_000 }],
  ['sliding-log', { limit: 7, windowMs: 3_000 }],
] as const)('%s', (algorithm, policy) => {
  it.each(['ietf', 'draft-7', 'draft-6', 'x-ratelimit'] as const)(
    'the client reads back what the server wrote in %s',
    async (headers: HeaderDialect) => {
      const clock = new ManualClock(0, WALL);
      const limiter = rateLimit({ algorithm, policy, headers, clock });
      for (let i = 0; i < 12; i++) {
        await clock.advance(i % 3 === 0 ? 37 : 1);
        const outcome = await limiter.check(request, { ip: '127.0.0.1' });
        const decision = outcome.decision!;
        const signal = readRateLimit(
          { status: outcome.status, headers: new Headers(outcome.headers) },
          { receivedAt: clock.wallNow() },
        );
        const resetSeconds = Math.ceil(decision.resetMs / 1000 - 1e-9);
        expect(signal.remaining).toBe(decision.remaining);
        if (headers === 'ietf') {
          expect(signal.dialect).toBe('ietf');
          expect(signal.limit).toBe(quotaOf(outcome.policy.limit).q);
          expect(signal.policies[0]?.windowMs).toBe(quotaOf(outcome.policy.limit).w * 1000);
          expect(signal.resetInMs).toBe(resetSeconds * 1000);
        } else if (headers === 'x-ratelimit') {
          expect(signal.limit).toBe(decision.limit);
          // An epoch-second reset; the Date header names the second the client is in, so there is
          // no skew and the reset counts from the client's own (finer) clock.
          const resetEpoch = Math.ceil((clock.wallNow() + decision.resetMs) / 1000 - 1e-9);
          expect(signal.resetInMs).toBe(Math.max(0, resetEpoch * 1000 - clock.wallNow()));
        } else {
          expect(signal.dialect).toBe(headers);
          expect(signal.limit).toBe(decision.limit);
          expect(signal.resetInMs).toBe(resetSeconds * 1000);
        }
        if (!outcome.allowed) {
          expect(signal.retryAfterMs).toBe(
            Math.max(1, Math.ceil(decision.retryAfterMs / 1000 - 1e-9)) * 1000,
          );
        }
      }
    },
  );
});

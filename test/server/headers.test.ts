import { describe, expect, it } from 'vitest';
import { dialects } from '../../src/server/headers/index.js';
import { quotaOf } from '../../src/server/headers/quota.js';
import type { HeaderDialect } from '../../src/server/headers/types.js';
import { resolvePolicy } from '../../src/server/policy.js';
import { readRateLimit } from '../../src/signals/read-rate-limit.js';

const wallNowMs = Date.UTC(2026, 0, 1, 0, 0, 0, 250);
const policy = resolvePolicy({ limit: 100, windowMs: 60_000, name: 'api' }, 'fixed-window');
const decision = { allowed: true, limit: 100, remaining: 50, resetMs: 4_200, retryAfterMs: 0 };

describe('header dialects', () => {
  it('writes the IETF structured fields', () => {
    expect(dialects.ietf({ policy, decision, wallNowMs })).toEqual([
      ['RateLimit-Policy', '"api";q=100;w=60'],
      ['RateLimit', '"api";r=50;t=5'],
    ]);
  });

  it('writes draft-7', () => {
    expect(dialects['draft-7']({ policy, decision, wallNowMs })).toEqual([
      ['RateLimit', 'limit=100, remaining=50, reset=5'],
      ['RateLimit-Policy', '100;w=60'],
    ]);
  });

  it('writes draft-6', () => {
    expect(dialects['draft-6']({ policy, decision, wallNowMs })).toEqual([
      ['RateLimit-Limit', '100'],
      ['RateLimit-Remaining', '50'],
      ['RateLimit-Reset', '5'],
      ['RateLimit-Policy', '100;w=60'],
    ]);
  });

  it('writes X-RateLimit-* with an epoch-second reset', () => {
    expect(dialects['x-ratelimit']({ policy, decision, wallNowMs })).toEqual([
      ['X-RateLimit-Limit', '100'],
      ['X-RateLimit-Remaining', '50'],
      ['X-RateLimit-Used', '50'],
      ['X-RateLimit-Reset', String(Math.ceil((wallNowMs + 4_200) / 1000))],
    ]);
  });

  it('writes nothing for none, and only the policy when the store gave no decision', () => {
    expect(dialects.none({ policy, decision, wallNowMs })).toEqual([]);
    expect(dialects.ietf({ policy, decision: undefined, wallNowMs })).toEqual([
      ['RateLimit-Policy', '"api";q=100;w=60'],
    ]);
  });

  it.each(['ietf', 'draft-7', 'draft-6', 'x-ratelimit'] as HeaderDialect[])(
    '%s round-trips through the client’s readRateLimit',
    (dialect) => {
      const headers = new Headers(dialects[dialect]({ policy, decision, wallNowMs }));
      const read = readRateLimit({ status: 200, headers }, { receivedAt: wallNowMs });
      expect(read.remaining).toBe(50);
      // The reset is 4.2 s away: whole seconds round it up (5 s), an epoch second lands within 1 s after it.
      if (dialect === 'x-ratelimit')
        expect(read.resetInMs).toBe(Math.ceil((wallNowMs + 4_200) / 1000) * 1000 - wallNowMs);
      else expect(read.resetInMs).toBe(5000);
      if (dialect !== 'x-ratelimit') expect(read.policies[0]).toMatchObject({ quota: 100, windowMs: 60_000 });
      expect(read.limit).toBe(100);
    },
  );
});

describe('quotaOf (IETF q/w with Integer parameters)', () => {
  it.each([
    [{ rate: 200, burst: 20 }, 200, 1],
    [{ rate: 1, burst: 60 }, 60, 60],
    [{ rate: 0.5, burst: 3 }, 3, 6],
    [{ rate: 2.5, burst: 4 }, 5, 2],
    [{ limit: 100, windowMs: 60_000 }, 100, 60],
    [{ limit: 3, windowMs: 1_500 }, 4, 2],
  ])('%o → q=%i;w=%i', (p, q, w) => {
    expect(quotaOf(resolvePolicy(p, 'token-bucket').limit)).toEqual({ q, w });
  });

  it('picks the smallest whole w with rate·w ≥ burst', () => {
    for (let burst = 1; burst <= 50; burst++) {
      for (const rate of [0.3, 1, 2.5, 7, 100]) {
        const { q, w } = quotaOf(resolvePolicy({ rate, burst }, 'token-bucket').limit);
        expect(rate * w).toBeGreaterThanOrEqual(burst - 1e-9);
        if (w > 1) expect(rate * (w - 1)).toBeLessThan(burst);
        expect(q).toBe(Math.floor(rate * w + 1e-9));
      }
    }
  });
});

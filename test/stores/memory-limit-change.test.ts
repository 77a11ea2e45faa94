import { describe, expect, it } from 'vitest';
import { tokenBucket } from '../../src/core/algorithms/token-bucket.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';

/**
 * `src/core/token-bucket.ts`: refill is "clamped to `burst`"; README bound of `token-bucket`:
 * `burst + rate · t` over any interval. A store key is not namespaced by policy or algorithm
 * (`policyFor` tiers, a policy change on deploy, two limiters sharing a store), so a bucket may
 * hold more tokens than the burst it is next read with: `tokensAt` returns such tokens unclamped
 * (`tokens >= burst` skips the `min`), and the bucket admits them all at once.
 */
describe('token bucket read with a smaller burst than its tokens', () => {
  it('admits no more than the new burst at one instant after the limit is lowered', async () => {
    const clock = new ManualClock(10_000);
    const store = memoryStore({ clock });
    // A key on a tier of 100/s, one request...
    expect(store.takeNow!('k', { algorithm: 'token-bucket', limit: 100, windowMs: 1000 }, 1).allowed).toBe(
      true,
    );
    // ...then downgraded to 10/s.
    const lowered = { algorithm: 'token-bucket' as const, limit: 10, windowMs: 1000 };
    const first = store.takeNow!('k', lowered, 1);
    expect(first.remaining).toBeLessThanOrEqual(lowered.limit);
    let admitted = first.allowed ? 1 : 0;
    for (let i = 0; i < 200; i++) if (store.takeNow!('k', lowered, 1).allowed) admitted++;
    // burst + rate · 0
    expect(admitted).toBeLessThanOrEqual(lowered.limit);
  });

  it('admits no more than the burst after the key was a fixed window (same slab width)', async () => {
    const clock = new ManualClock(60_000);
    const store = memoryStore({ clock });
    expect(store.takeNow!('k', { algorithm: 'fixed-window', limit: 5, windowMs: 1000 }, 1).allowed).toBe(
      true,
    );
    const bucket = { algorithm: 'token-bucket' as const, limit: 5, windowMs: 1000 };
    let admitted = 0;
    for (let i = 0; i < 100; i++) if (store.takeNow!('k', bucket, 1).allowed) admitted++;
    expect(admitted).toBeLessThanOrEqual(bucket.limit);
  });

  it('the pure take clamps a state above the burst', () => {
    // 50 tokens held, burst 5: at most 5 are there.
    const r = tokenBucket.take([50, 0], { algorithm: 'token-bucket', limit: 5, windowMs: 1000 }, 100, 1);
    expect(r.decision.remaining).toBeLessThanOrEqual(5);
  });
});

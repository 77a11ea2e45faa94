import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import type { RateLimitStore } from '../../src/stores/store.js';

const hanging: RateLimitStore = {
  take: () => new Promise(() => {}),
  reserve: () => new Promise(() => {}),
  holdGate: () => new Promise(() => {}),
  gateWait: () => new Promise(() => {}),
};
const failing: RateLimitStore = { ...hanging, take: () => Promise.reject(new Error('ECONNREFUSED')) };
const req = () => new Request('http://api.test/login');

async function settleWithin(clock: ManualClock, ms: number, promise: Promise<unknown>) {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await clock.advance(ms - 1);
  const early = done;
  await clock.advance(1);
  return { early, done };
}

describe('store failure', () => {
  it('answers open within storeTimeoutMs when the store hangs, and counts it', async () => {
    const clock = new ManualClock();
    const limiter = rateLimit({ clock, store: hanging, storeTimeoutMs: 100 });
    const pending = limiter.check(req(), { ip: 'a' });
    expect(await settleWithin(clock, 100, pending)).toEqual({ early: false, done: true });
    const outcome = await pending;
    expect(outcome).toMatchObject({ allowed: true, status: 200, decision: undefined });
    expect(outcome.storeError?.code).toBe('HEADWAY_STORE_TIMEOUT');
    expect(outcome.headers.map(([name]) => name)).toEqual(['RateLimit-Policy', 'Date']);
    expect(limiter.metrics().storeErrors).toBe(1);
  });

  it('answers 503 when closed (globally or by a failClosed policy)', async () => {
    const clock = new ManualClock();
    for (const options of [
      { onStoreError: 'closed' as const },
      { policy: { limit: 5, name: 'login', failClosed: true } },
    ]) {
      const limiter = rateLimit({ clock, store: hanging, storeTimeoutMs: 50, ...options });
      const pending = limiter.check(req(), { ip: 'a' });
      await clock.advance(50);
      const outcome = await pending;
      expect(outcome).toMatchObject({ allowed: false, status: 503 });
      expect(JSON.parse(outcome.body!)).toMatchObject({ error: 'rate_limiter_unavailable' });
      expect(outcome.headers).toContainEqual(['Retry-After', '1']);
    }
  });

  it('fails open on a store error without waiting, and wraps the cause', async () => {
    const limiter = rateLimit({ clock: new ManualClock(), store: failing });
    const outcome = await limiter.check(req(), { ip: 'a' });
    expect(outcome.allowed).toBe(true);
    expect(outcome.storeError).toMatchObject({ code: 'HEADWAY_STORE_ERROR' });
    expect(outcome.storeError!.cause).toMatchObject({ message: 'ECONNREFUSED' });
  });

  it('leaves no timer behind when the store answers', async () => {
    const clock = new ManualClock();
    const limiter = rateLimit({ clock });
    await limiter.check(req(), { ip: 'a' });
    expect(clock.pending).toBe(0);
  });

  it('observe mode admits even when the store fails closed', async () => {
    const limiter = rateLimit({
      clock: new ManualClock(),
      store: failing,
      onStoreError: 'closed',
      mode: 'observe',
    });
    expect((await limiter.check(req(), { ip: 'a' })).allowed).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import type { DecisionEvent } from '../../src/server/options.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { memoryStore } from '../../src/stores/memory.js';

const request = (headers: Record<string, string> = {}) => new Request('http://api.test/items', { headers });
const header = (outcome: { headers: Array<[string, string]> }, name: string) =>
  outcome.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];

function limiter(options: Parameters<typeof rateLimit>[0] = {}) {
  const clock = new ManualClock();
  return { clock, limiter: rateLimit({ clock, policy: { rate: 1, burst: 2 }, ...options }) };
}

describe('rateLimit', () => {
  it('admits the burst, then refuses with 429, an exact Retry-After and a JSON body', async () => {
    const { clock, limiter: l } = limiter({ retryAfterMsHeader: true });
    const first = await l.check(request(), { ip: '192.0.2.1' });
    expect(first).toMatchObject({ allowed: true, status: 200, key: 'ip:192.0.2.1', body: undefined });
    expect(header(first, 'RateLimit')).toBe('"default";r=1;t=1');
    expect(header(first, 'Date')).toBe(new Date(clock.wallNow()).toUTCString());
    await l.check(request(), { ip: '192.0.2.1' });
    const refused = await l.check(request(), { ip: '192.0.2.1' });
    expect(refused).toMatchObject({ allowed: false, status: 429 });
    expect(header(refused, 'Retry-After')).toBe('1');
    expect(header(refused, 'retry-after-ms')).toBe('1000');
    expect(JSON.parse(refused.body!)).toEqual({
      error: 'rate_limited',
      retryAfterSeconds: 1,
      policy: 'default',
    });
    await clock.advance(999);
    expect((await l.check(request(), { ip: '192.0.2.1' })).allowed).toBe(false);
    await clock.advance(1);
    expect((await l.check(request(), { ip: '192.0.2.1' })).allowed).toBe(true);
  });

  it('sends a Retry-After that is never shorter than the exact wait (ceil seconds, ≥ 1)', async () => {
    const { clock, limiter: l } = limiter({ policy: { rate: 0.4, burst: 1 }, retryAfterMsHeader: true });
    await l.check(request(), { ip: 'a' });
    await clock.advance(300);
    const refused = await l.check(request(), { ip: 'a' });
    expect(header(refused, 'retry-after-ms')).toBe('2200');
    expect(header(refused, 'Retry-After')).toBe('3');
    await clock.advance(3000);
    expect((await l.check(request(), { ip: 'a' })).allowed).toBe(true);
  });

  it('charges weighted requests by cost', async () => {
    const { limiter: l } = limiter({
      policy: { limit: 10, windowMs: 1000 },
      cost: (r) => (r.url.endsWith('/bulk') ? 6 : 1),
    });
    const bulk = new Request('http://api.test/bulk');
    expect((await l.check(bulk, { ip: 'a' })).allowed).toBe(true);
    expect((await l.check(bulk, { ip: 'a' })).allowed).toBe(false);
    expect((await l.check(request(), { ip: 'a' })).decision?.remaining).toBe(3);
    const tooBig = rateLimit({ policy: { limit: 2 }, cost: () => 3 });
    await expect(tooBig.check(request(), { ip: 'a' })).rejects.toMatchObject({
      code: 'HEADWAY_INVALID_COST',
    });
  });

  it('applies per-key tiers from policyFor and names them in headers', async () => {
    const { limiter: l } = limiter({
      policyFor: (key) =>
        key.startsWith('key:')
          ? { name: 'pro', limit: 100, windowMs: 1000 }
          : { name: 'free', limit: 1, windowMs: 1000 },
    });
    const pro = await l.check(request({ authorization: 'Bearer secret-token' }), { ip: 'a' });
    expect(header(pro, 'RateLimit-Policy')).toBe('"pro";q=100;w=1');
    const free = await l.check(request(), { ip: 'a' });
    expect(header(free, 'RateLimit-Policy')).toBe('"free";q=1;w=1');
  });

  it('observe mode refuses nothing, counts would-be refusals per key and still sends headers', async () => {
    const events: DecisionEvent[] = [];
    const { limiter: l } = limiter({ mode: 'observe', onDecision: (e) => events.push(e) });
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await l.check(request(), { ip: 'a' }));
    expect(outcomes.every((o) => o.allowed && o.status === 200)).toBe(true);
    expect(outcomes.map((o) => o.wouldRefuse)).toEqual([false, false, true, true, true]);
    expect(header(outcomes[4]!, 'RateLimit')).toBe('"default";r=0;t=2');
    expect(header(outcomes[4]!, 'Retry-After')).toBeUndefined();
    const m = l.metrics();
    expect(m).toMatchObject({ allowed: 2, refused: 0, wouldRefuse: 3, refusedKeys: 1 });
    expect(m.keys[0]).toEqual({ key: 'ip:a', allowed: 2, refused: 0, wouldRefuse: 3 });
    expect(events.map((e) => e.wouldRefuse)).toEqual([false, false, true, true, true]);
  });

  it('counts distinct keys refused in the last metrics window', async () => {
    const { clock, limiter: l } = limiter({ policy: { limit: 1, windowMs: 1000 }, metricsWindowMs: 10_000 });
    for (const ip of ['a', 'b', 'c']) for (let i = 0; i < 3; i++) await l.check(request(), { ip });
    expect(l.metrics()).toMatchObject({ allowed: 3, refused: 6, refusedKeys: 3 });
    await clock.advance(10_000);
    expect(l.metrics().refusedKeys).toBe(0);
  });

  it('bounds the per-key metrics', async () => {
    const { limiter: l } = limiter({ metricsMaxKeys: 10 });
    for (let i = 0; i < 100; i++) await l.check(request(), { ip: `10.0.0.${i}` });
    expect(l.metrics().keys.length).toBeLessThanOrEqual(10);
    expect(l.metrics().allowed).toBe(100);
  });

  it('shares a store across limiters when given one', async () => {
    const clock = new ManualClock();
    const store = memoryStore({ clock });
    const a = rateLimit({ clock, store, policy: { limit: 1 } });
    const b = rateLimit({ clock, store, policy: { limit: 1 } });
    expect((await a.check(request(), { ip: 'x' })).allowed).toBe(true);
    expect((await b.check(request(), { ip: 'x' })).allowed).toBe(false);
  });
});

describe('rateLimit options are validated at construction', () => {
  it('uses the one message shape', () => {
    expect(() => rateLimit({ policy: { rate: -1 } })).toThrow(
      'Expected `policy.rate` to be a positive finite number, got `-1` (number)',
    );
    expect(() => rateLimit({ storeTimeoutMs: 0 })).toThrow(
      'Expected `storeTimeoutMs` to be a positive finite number',
    );
    expect(() => rateLimit({ algorithm: 'leaky' as never })).toThrow(
      "Expected `algorithm` to be one of 'token-bucket'",
    );
    expect(() => rateLimit({ headers: 'draft-8' as never })).toThrow('Expected `headers` to be one of');
    expect(() => rateLimit({ trustProxy: -1 })).toThrow('Expected `trustProxy` to be a non-negative integer');
  });

  it('says how to fix a policy with limit 0, with a code', () => {
    let error: unknown;
    try {
      rateLimit({ policy: { limit: 0, windowMs: 1000 } });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'HEADWAY_INVALID_OPTION', option: 'policy.limit' });
    expect((error as Error).message).toBe(
      'Expected `policy.limit` to be a positive finite number, got `0` (number). To block a route entirely, answer 403 yourself; a limit needs at least one unit per window',
    );
    expect(() => rateLimit({ policy: { limit: 5, rate: 5 } })).toThrow(
      'use `rate` + `burst`, or `limit` + `windowMs`',
    );
  });

  it('validates policies returned by policyFor on first use', async () => {
    const l = rateLimit({ policyFor: () => ({ limit: Number.NaN }) });
    await expect(l.check(request(), { ip: 'a' })).rejects.toMatchObject({ option: 'policyFor().limit' });
  });
});

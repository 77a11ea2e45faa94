import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { instruments, serverMetrics } from '../../src/metrics/index.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import type { RateLimitStore } from '../../src/stores/store.js';
import { inMemoryMeter } from './in-memory.js';

const request = (key: string) => new Request('http://api.test/items', { headers: { 'x-key': key } });
const key = (r: { headers: { get(name: string): string | null } }) => r.headers.get('x-key') ?? 'none';

describe('serverMetrics', () => {
  it('counts decisions by policy and result, and observes the distinct keys refused', async () => {
    const sdk = inMemoryMeter();
    const metrics = serverMetrics({ meter: sdk.meter });
    const clock = new ManualClock();
    const policy = { name: 'api', limit: 2, windowMs: 60_000 };
    const enforce = rateLimit({ clock, key, policy, onDecision: metrics.onDecision });
    const observe = rateLimit({
      clock,
      key,
      mode: 'observe',
      policy: { ...policy, name: 'shadow' },
      onDecision: metrics.onDecision,
    });
    const down: RateLimitStore = {
      take: () => Promise.reject(new Error('down')),
      reserve: () => Promise.reject(new Error('down')),
      holdGate: () => Promise.reject(new Error('down')),
      gateWait: () => Promise.reject(new Error('down')),
    };
    const failing = rateLimit({
      clock,
      key,
      policy: { ...policy, name: 'login' },
      store: down,
      onDecision: metrics.onDecision,
    });
    metrics.observe(enforce);
    for (const k of ['a', 'a', 'a', 'b', 'b', 'b', 'b', 'c']) await enforce.check(request(k));
    for (const k of ['a', 'a', 'a']) expect((await observe.check(request(k))).status).toBe(200);
    await failing.check(request('a'));

    const recorded = await sdk.collect();
    const decisions = recorded.get(instruments.serverDecisions.name);
    expect(decisions?.unit).toBe('{request}');
    const count = (policyName: string, decision: string) =>
      decisions?.points.find(
        (p) => p.attributes['headway.policy'] === policyName && p.attributes['headway.decision'] === decision,
      )?.value;
    expect(count('api', 'allowed')).toBe(5);
    expect(count('api', 'refused')).toBe(3);
    expect(count('shadow', 'allowed')).toBe(2);
    expect(count('shadow', 'would_refuse')).toBe(1);
    expect(count('login', 'store_error')).toBe(1);
    expect(decisions?.points).toHaveLength(5);
    // a and b were refused within the window (c was not): the alert signal reads 2.
    expect(recorded.get(instruments.serverRefusedKeys.name)).toEqual({
      unit: '{key}',
      points: [{ attributes: {}, value: 2 }],
    });
    expect(enforce.metrics().refusedKeys).toBe(2);
    await sdk.shutdown();
  });

  it('is a no-op without a registered SDK', async () => {
    const metrics = serverMetrics();
    const limiter = rateLimit({ policy: { limit: 1 }, onDecision: metrics.onDecision });
    const stop = metrics.observe(limiter);
    expect((await limiter.check(request('a'))).status).toBe(200);
    stop();
  });
});

describe('README "Metrics"', () => {
  it('names exactly the instruments Headway records, with their units', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Metrics'), readme.indexOf('## Benchmarks'));
    const rows = [...section.matchAll(/^\| `(headway\.[a-z_.]+)` \| [^|]+ \| `([^`]+)` \|/gm)].map(
      ([, name, unit]) => ({
        name,
        unit,
      }),
    );
    expect(rows).toEqual(Object.values(instruments).map(({ name, unit }) => ({ name, unit })));
  });
});

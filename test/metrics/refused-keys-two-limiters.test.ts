/**
 * README "Metrics": `headway.server.refused_keys` is "distinct keys refused (or that would have
 * been) within `metricsWindowMs`: the alert signal (`metrics().refusedKeys`)", and `observe` (its
 * TSDoc) "Reports `source`'s distinct refused keys on every collection". Two limiters observed on
 * one meter — one binding's `observe` called twice, or two servers' bindings sharing a meter —
 * each report an observation of the same series (no attributes) in the same collection, and the
 * SDK keeps the last one: the other limiter's refused keys vanish from the alert signal. (The
 * client side already sums its clients in one callback for exactly this reason.)
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { instruments, serverMetrics } from '../../src/metrics/index.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { inMemoryMeter } from './in-memory.js';

const request = (key: string) => new Request('http://api.test/items', { headers: { 'x-key': key } });
const key = (r: { headers: { get(name: string): string | null } }) => r.headers.get('x-key') ?? 'none';
const policy = { limit: 1, windowMs: 60_000 };

/** Two limiters on one clock: `api` refuses keys a and b, `login` refuses nothing. */
async function twoLimiters(onApi: Parameters<typeof rateLimit>[0], onLogin: Parameters<typeof rateLimit>[0]) {
  const clock = new ManualClock();
  const api = rateLimit({ clock, key, policy: { ...policy, name: 'api' }, ...onApi });
  const login = rateLimit({ clock, key, policy: { ...policy, name: 'login' }, ...onLogin });
  for (const k of ['a', 'a', 'b', 'b']) await api.check(request(k));
  await login.check(request('c'));
  expect(api.metrics().refusedKeys).toBe(2);
  expect(login.metrics().refusedKeys).toBe(0);
  return { api, login };
}

/** The gauge's total over its points, however they are split. */
const total = (points: Array<{ value: unknown }> | undefined) =>
  (points ?? []).reduce((sum, p) => sum + (p.value as number), 0);

describe('headway.server.refused_keys with two limiters on one meter', () => {
  it("one serverMetrics observing two limiters reports both limiters' refused keys", async () => {
    const sdk = inMemoryMeter();
    const metrics = serverMetrics({ meter: sdk.meter });
    const { api, login } = await twoLimiters(
      { onDecision: metrics.onDecision },
      { onDecision: metrics.onDecision },
    );
    const stops = [metrics.observe(api), metrics.observe(login)];

    const recorded = await sdk.collect();
    expect(total(recorded.get(instruments.serverRefusedKeys.name)?.points)).toBe(2);
    for (const stop of stops) stop();
    await sdk.shutdown();
  });

  it("two servers' bindings sharing one meter report both servers' refused keys", async () => {
    const sdk = inMemoryMeter();
    const apiMetrics = serverMetrics({ meter: sdk.meter });
    const loginMetrics = serverMetrics({ meter: sdk.meter });
    const { api, login } = await twoLimiters(
      { onDecision: apiMetrics.onDecision },
      { onDecision: loginMetrics.onDecision },
    );
    const stops = [apiMetrics.observe(api), loginMetrics.observe(login)];

    const recorded = await sdk.collect();
    expect(total(recorded.get(instruments.serverRefusedKeys.name)?.points)).toBe(2);
    for (const stop of stops) stop();
    await sdk.shutdown();
  });
});

/**
 * A dispatcher refuses a dispatch once it is closed or destroyed (`ClientClosedError`,
 * `ClientDestroyedError`, thrown by undici's `DispatcherBase.dispatch` before anything is sent).
 * The engine's `Transport.refused` contract (src/client/engine.ts): an error that "says it was
 * never sent" ends the call "with that error, unretried, and the key learns nothing from it (no
 * outage)". README, "Pace code you don't own": one `headwayInterceptor()` may be composed onto
 * dispatchers of your own, so a straggling call through a closed one must not retry against it,
 * nor close its key's gate for an outage that holds the calls through the dispatchers still open.
 * A real server on 127.0.0.1; waits on a manual clock.
 */
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/index.js';
import { runUntilSettled } from '../client/fake-server.js';
import { listen } from '../server/loopback.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('headwayInterceptor: a call through a closed dispatcher', () => {
  it('ends at once with undici’s own error, unretried, and is no outage for the key', async () => {
    const server = await listen((_req, res) => res.end('ok'));
    cleanups.push(server.close);
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const paced = headwayInterceptor({ clock, random: () => 0.5 });
    const retries: Array<string> = [];
    paced.onRetry((e) => retries.push(e.reason));
    const throttles: Array<string> = [];
    paced.onThrottle((e) => throttles.push(e.reason));

    // Two dispatchers share the interceptor; one has been closed (a tenant shut down, say).
    const open = new Agent();
    cleanups.push(() => open.close());
    const closed = new Agent();
    await closed.close();

    const [straggler] = await runUntilSettled(
      clock,
      [request(`${server.url}/late`, { dispatcher: closed.compose(paced) })],
      10,
    );
    expect(straggler?.status).toBe('rejected');
    expect((straggler as PromiseRejectedResult).reason.code).toMatch(/^UND_ERR_(CLOSED|DESTROYED)$/);
    expect(retries).toEqual([]);
    expect(paced.stats().map((s) => s.gate.reason ?? null)).not.toContain('outage');

    // A call through the dispatcher still open is not held by that "outage".
    throttles.length = 0;
    const [live] = await runUntilSettled(
      clock,
      [request(`${server.url}/live`, { dispatcher: open.compose(paced) }).then((r) => r.body.text())],
      10,
    );
    expect(live).toEqual({ status: 'fulfilled', value: 'ok' });
    expect(throttles).toEqual([]);
  });
});

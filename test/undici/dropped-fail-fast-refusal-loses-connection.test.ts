/**
 * README, "Pace code you don't own" → "Backpressure holds": "Once the retry leaves, the dropped
 * answer's rest is read and ignored, so its keep-alive connection stays usable; a body that has
 * not ended within 5 s of the drop, or by the time the call ends, is aborted and its connection
 * closed ... A refusal that fails fast (`Retry-After` beyond `maxRetryAfterMs`) ends its call at
 * once, so a body still on its way then costs its connection."
 *
 * A first attempt's answer is decided on its head, inside undici's `onResponseStart`, before undici
 * has handed over any of its body — even a body that came in the same packet as the head. A
 * refusal that fails fast is dropped there and its call ends at once (00135ae:
 * `PacedCall.fail` → `#releaseDropped` → `abortDropped`), so every such refusal with a body
 * (`{"error":"slow down"}`, the usual JSON) has its connection destroyed, not only one whose body
 * is "still on its way": the next call opens a new connection (a TCP and TLS handshake) where the
 * same connection served it before 00135ae. The same holds for any answer the engine ends its
 * call on at its head (a retry budget that throws, a hint past the call's deadline).
 *
 * Found on 2026-12-06 (session 26, a review of 00135ae). Figures: before 00135ae, 1 connection
 * for the two calls; since, 2, the first closed by the client.
 *
 * Fixed the same day: a call that ends in an error aborts no dropped answer (its 5 s wait
 * alone can); a call that has its answer aborts only a dropped answer whose body is still coming.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/index.js';
import { refusalServer } from './refusal-server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The first request (`/a`) is refused for an hour, its short JSON body written with its head; the rest answered `ok`. */
const hourLongRefusal = () => refusalServer(cleanups, { retryAfter: '3600', body: 'with-head' });

describe('headwayInterceptor: a refusal that fails fast, its short body sent with its head', () => {
  it('its keep-alive connection serves the next call', async () => {
    const { url, seen, state } = await hourLongRefusal();
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const client = new Client(url);
    cleanups.push(() => client.destroy());
    const dispatcher = client.compose(headwayInterceptor({ clock, random: () => 0 }));

    const first = await request(`${url}/a`, { dispatcher }).then(
      (r) => `${r.statusCode}`,
      (error: unknown) => (error as { code?: string }).code ?? String(error),
    );
    expect(first).toBe('HEADWAY_RATE_LIMITED');
    // The next call on the same Client (straight to it: the server answers it at once).
    const second = await request(`${url}/b`, { dispatcher: client }).then(
      async (r) => `${r.statusCode} ${await r.body.text()}`,
    );
    expect(second).toBe('200 ok');
    expect(seen).toEqual(['/a', '/b']);
    // Real time for a close to reach the server, were there one (loopback: a few ms).
    await sleep(50);

    expect(state).toEqual({ connections: 1, closed: 0 });
  });
});

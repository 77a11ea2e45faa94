/**
 * README, "Pace code you don't own" → "Backpressure holds": "An answer kept for a retry is read to
 * its end while its body is short (up to 64 KiB, a refusal's usual line of JSON), so its connection
 * is free for other calls while the retry waits". Before bdc7e85, `AttemptHandler.drop` read the
 * rest of a dropped answer and its keep-alive connection stayed usable.
 *
 * Since bdc7e85 a dropped answer whose body has not *yet* ended is aborted. A 429 whose short body
 * (`slow down`, 9 bytes) arrives in a later chunk than its head (a proxy, a chunked error page, a
 * head flushed first) is dropped as soon as its retry leaves — at once for `Retry-After: 0` — before
 * its 9 bytes are in: the connection is destroyed and every such retry opens a new one (a TCP and
 * TLS handshake per refusal), where it was kept before. The spy below releases the body only once
 * the retry has been dispatched, so the order is the same on every run.
 *
 * Found on 2026-12-06 (session 25, a review of that day's changes) against bdc7e85 (the
 * interceptor aborting a dropped answer whose body had not ended); the change was taken back the
 * same day, and this test keeps its regression out: it passes on the code without it. The figures
 * above are that change's, against the code before and after it.
 */
import { Client } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/index.js';
import { attemptSpy, getText, refusalServer, runFor } from './refusal-server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const refusalWithLateBody = (retryAfter: string) => refusalServer(cleanups, { retryAfter, body: 'late' });

describe('headwayInterceptor: a short refusal whose body comes after its head, dropped for its retry', () => {
  for (const retryAfter of ['0', '1']) {
    it(`Retry-After: ${retryAfter}: the body is read and the keep-alive connection reused for the retry`, async () => {
      const { url, seen, state, release } = await refusalWithLateBody(retryAfter);
      const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
      const client = new Client(url);
      cleanups.push(() => client.destroy());
      // Inside Headway (undici runs the last listed first): sees each attempt as it is dispatched.
      const spy = attemptSpy((n) => n === 2 && release());
      const dispatcher = client.compose(spy.interceptor, headwayInterceptor({ clock, random: () => 0 }));

      const call = getText(`${url}/a`, dispatcher);
      await runFor(clock, () => call.text !== null);

      expect(call.text).toBe('200 ok');
      expect(seen).toEqual(['/a', '/a']);
      expect(state.connections).toBe(1);
    });
  }
});

/**
 * Review (area: queue, the pacer's in-flight part). A ticket that goes back unsent —
 * `KeyLane.cancel` ("Gives back the ticket of an attempt that was never sent (its transport
 * refused it)"), or `giveBack` in `waitTurn` when the head of the line was aborted just as it was
 * granted — only undoes the in-flight count and `stats().sent` (`Pacer.cancel` → `#release`). The
 * unit `Pacer.grant` took from the configured bucket (and from the learned models) stays spent:
 * the key then paces as if the call had reached the server, and the next call waits a whole
 * refill for a request nobody sent. The engine's `Transport.refused` says of such a call "the key
 * learns nothing from it"; the README: "`rate` — sustained calls per second".
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const ORIGIN = 'http://127.0.0.1:9';

const tick = async (n: number) => {
  for (let i = 0; i < n; i++) await null;
};

describe('a ticket given back unsent gives its unit back', () => {
  it('a call fetch refuses (a GET with a body) does not spend the rate of the call after it', async () => {
    const clock = new ManualClock();
    const sentAt: number[] = [];
    // As `fetch` does: arguments it refuses throw a TypeError before anything is sent.
    const transport = async (input: RequestInfo | URL, init?: RequestInit) => {
      new Request(input, init);
      sentAt.push(clock.now());
      return new Response('ok');
    };
    const fetch = createFetch({ fetch: transport, clock, rate: 1, burst: 1 });
    const [refused] = await runUntilSettled(clock, [fetch(`${ORIGIN}/bad`, { method: 'GET', body: 'x' })]);
    expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(TypeError);
    expect(fetch.stats()[0]!.sent).toBe(0);

    const madeAt = clock.now();
    await runUntilSettled(clock, [fetch(`${ORIGIN}/good`)]);
    expect(sentAt).toEqual([madeAt]);
  });

  it('the head aborted as it is granted hands its unit over with its turn (abort 0…11 microtasks after the answer)', async () => {
    const late: Array<{ k: number; laterSentAt: number }> = [];
    for (let k = 0; k < 12; k++) {
      const clock = new ManualClock();
      const server = fakeFetch(clock, () => ({ status: 200 }), 100);
      // 3 at once less the cushion of 1: two calls may go together, then one per second.
      const fetch = createFetch({ fetch: server.fetch, clock, maxConcurrent: 1, rate: 1, burst: 3 });
      const loser = new AbortController();
      const first = fetch(`${ORIGIN}/first`).then(async (r) => {
        await tick(k);
        loser.abort(new Error('not needed any more'));
        return r;
      });
      const waiting = fetch(`${ORIGIN}/waiting`, { signal: loser.signal });
      waiting.catch(() => {});
      await clock.advance(150);
      const later = fetch(`${ORIGIN}/later`);
      await runUntilSettled(clock, [first, waiting, later]);
      const urls = server.seen.map((s) => s.url);
      // Only when the aborted call never reached the server: its unit is the later call's.
      if (!urls.includes(`${ORIGIN}/waiting`)) {
        const laterSentAt = server.seen.find((s) => s.url === `${ORIGIN}/later`)!.at;
        if (laterSentAt !== 150) late.push({ k, laterSentAt });
      }
    }
    expect(late).toEqual([]);
  });
});

/**
 * `createFetch` is a drop-in `fetch`: `fetch(new Request(url, { signal }))` honours the Request's
 * own signal, in a pacing wait and in the live attempt.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { AbortError } from '../../src/errors.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';
const ok = () => ({ status: 200 });

describe('createFetch: a Request input carrying its own signal', () => {
  it("aborting the Request's signal cancels the pacing wait at once", async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, ok);
    const fetch = createFetch({ fetch: server.fetch, clock, rate: 1, burst: 1 });
    await fetch(URL_A); // spends the only token: the next call waits 1 s
    const controller = new AbortController();
    const waiting = fetch(new Request(URL_A, { signal: controller.signal }));
    let outcome: unknown = 'pending';
    waiting.then(
      (r) => (outcome = r.status),
      (e: unknown) => (outcome = e),
    );
    await clock.advance(10);
    controller.abort(new Error('caller gave up'));
    await clock.advance(0); // no time passes: only the abort's callbacks run
    const observed = outcome;
    await runUntilSettled(clock, [waiting.catch(() => {})], 100); // clean up whatever is left
    expect(observed).toBeInstanceOf(AbortError);
    expect(server.seen).toHaveLength(1);
  });

  it("aborting the Request's signal cancels the live attempt (with timeoutMs set)", async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, ok, 5_000); // answers after 5 s, honouring init.signal
    const fetch = createFetch({ fetch: server.fetch, clock, timeoutMs: 60_000 });
    const controller = new AbortController();
    const call = fetch(new Request(URL_A, { signal: controller.signal }));
    let outcome: unknown = 'pending';
    call.then(
      (r) => (outcome = r.status),
      (e: unknown) => (outcome = e),
    );
    await clock.advance(10);
    expect(server.seen).toHaveLength(1);
    controller.abort(new Error('caller gave up'));
    await clock.advance(0);
    const observed = outcome;
    await runUntilSettled(clock, [call.catch(() => {})], 100);
    expect(observed).toBeInstanceOf(AbortError);
  });
});

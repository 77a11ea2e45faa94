/**
 * Review (area: queue). README, `deadlineMs`: "whole call: queue + waits + attempts; a projected
 * wait beyond it fails at once". A lone call whose pacing wait (a configured rate, or a window the
 * server reports exhausted) is beyond its deadline fails at once (the head checks its wait:
 * src/client/turn.ts `atHead` → `checkWait`). A call that joins behind a head is checked only
 * against the gate (`waitTurn` reads `pacer.gateDelay`, not `pacer.delay`): it waits out its
 * whole deadline, although it cannot leave before the head, whose own wait is already beyond it.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { DeadlineExceededError } from '../../src/errors.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

/** Records when a call rejected, and with what. */
function watch(clock: ManualClock, p: Promise<Response>) {
  const out: { at?: number; error?: unknown } = {};
  const settled = p.then(
    () => {},
    (error: unknown) => {
      out.at = clock.now();
      out.error = error;
    },
  );
  return { out, settled };
}

describe('deadlineMs of a call behind the head, while pacing holds the key beyond it', () => {
  it('a configured rate: fails at once, as it does alone', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    // One call per 10 s: after the first, the next may go at 10 000.
    const fetch = createFetch({ fetch: server.fetch, clock, rate: 0.1, burst: 1 });
    await fetch(URL_A);

    const lone = watch(clock, fetch(URL_A, { deadlineMs: 2_000 }));
    await clock.advance(0);
    expect(lone.out.error).toBeInstanceOf(DeadlineExceededError);
    expect(lone.out.at).toBe(0); // alone, it fails at once

    const head = fetch(URL_A); // no deadline: waits for 10 000
    const behind = watch(clock, fetch(URL_A, { deadlineMs: 2_000 }));
    await clock.advance(0);
    await clock.advance(3_000);
    expect(behind.out.error).toBeInstanceOf(DeadlineExceededError);
    expect(behind.out.at).toBe(0);
    await runUntilSettled(clock, [head.then(() => undefined), behind.settled], 100);
  });

  it('a window the server reports exhausted for 30 s: fails at once', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) =>
      i === 0
        ? {
            status: 200,
            headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '30' },
          }
        : { status: 200 },
    );
    const fetch = createFetch({ fetch: server.fetch, clock });
    await fetch(URL_A);

    const head = fetch(URL_A); // no deadline: waits for the window's reset
    const behind = watch(clock, fetch(URL_A, { deadlineMs: 2_000 }));
    await clock.advance(0);
    await clock.advance(3_000);
    expect(behind.out.error).toBeInstanceOf(DeadlineExceededError);
    expect(behind.out.at).toBe(0);
    await runUntilSettled(clock, [head.then(() => undefined), behind.settled], 100);
  });
});

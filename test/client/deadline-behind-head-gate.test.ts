/**
 * README, `deadlineMs`: "whole call: queue + waits + attempts; a projected wait beyond it fails at
 * once". A call that finds its key's gate closed for longer than its deadline fails at once when
 * it is alone (the head checks its wait: src/client/turn.ts `atHead` → `checkWait`), but a call
 * that joins behind a head waits out its whole deadline first, although the gate holds every call
 * of the key (its projected wait is at least the gate's) — only the head's wait is ever checked.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { DeadlineExceededError } from '../../src/errors.js';
import { fakeFetch } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('deadlineMs of a call behind the head, while the gate is closed beyond it', () => {
  it('fails at once, as it does at the head', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '10' } } : { status: 200 },
    );
    const fetch = createFetch({ fetch: server.fetch, clock, retries: 0, random: () => 0 });
    expect((await fetch(URL_A)).status).toBe(429); // the gate is closed for 10 s
    const head = fetch(URL_A); // no deadline: the head waits for the gate
    const ended: Record<string, number> = {};
    const errors: Record<string, unknown> = {};
    const watch = (name: string, p: Promise<Response>) =>
      p.catch((e: unknown) => {
        ended[name] = clock.now();
        errors[name] = e;
      });
    const behind = watch('behind', fetch(URL_A, { deadlineMs: 2_000 }));
    await clock.advance(0);
    await clock.advance(3_000);
    expect(errors.behind).toBeInstanceOf(DeadlineExceededError);
    expect(ended.behind).toBe(0);
    await clock.advance(10_000);
    await Promise.all([head, behind]);
  });
});

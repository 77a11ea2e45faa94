/**
 * Review (area: stats). `KeyStats.retries` is documented as "Retries sent" (src/client/stats.ts;
 * README "Events and stats"), and `sent` as "Attempts sent", so every snapshot has
 * `sent >= retries + 1` once a call was sent. The counter is moved when the retry budget pays for a
 * retry (src/client/key-budget.ts `withdraw`, from src/client/engine-call.ts `#planRetry`), not
 * when the retry leaves: while a retry waits out a 30 s `Retry-After`, `stats()` says one retry was
 * sent though the server saw one attempt only, and the counter goes back down if the call ends
 * before the retry leaves (`refund`).
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { AbortError } from '../../src/errors.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('stats().retries: "Retries sent"', () => {
  it('does not count a retry still waiting for the gate its 429 closed', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '30' } } : { status: 200 },
    );
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    const call = fetch(URL_A);
    await clock.advance(10_000); // the retry waits for the gate until 30 000
    expect(server.seen).toHaveLength(1);
    const during = fetch.stats()[0]!;
    expect(during.sent).toBe(1);
    expect(during.retries).toBe(0);

    const [result] = await runUntilSettled(clock, [call], 100);
    expect(result).toMatchObject({ status: 'fulfilled' });
    expect(server.seen).toHaveLength(2);
    expect(fetch.stats()[0]).toMatchObject({ sent: 2, retries: 1 });
  });

  it('never goes down: a retry the caller abandons while it waits was never counted', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 429, headers: { 'retry-after': '30' } }));
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    const caller = new AbortController();
    const call = fetch(URL_A, { signal: caller.signal });
    await clock.advance(10_000);
    const seen: number[] = [fetch.stats()[0]!.retries];
    caller.abort(new Error('gave up'));
    await expect(call).rejects.toBeInstanceOf(AbortError);
    seen.push(fetch.stats()[0]!.retries);
    expect(seen).toEqual([0, 0]);
  });
});

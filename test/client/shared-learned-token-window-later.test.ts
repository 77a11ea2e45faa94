/**
 * README (Token quotas): "With a `store` and no `rate`, a key whose server reports a token window is
 * paced by each process from its own view of every window". A token window first reported after the
 * key already learned (and booked at) request figures must still be paced.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('shared quota, learned: a token window reported after the request figures were learned', () => {
  it('is paced: a call does not go while the token window is reported spent', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_seen, i): { status: number; headers: Record<string, string> } =>
      i < 3
        ? // Requests only, IETF: 100/s, burst 100, stated as a policy.
          { status: 200, headers: { 'ratelimit-policy': '"p";q=100;w=1', ratelimit: `"p";r=${99 - i};t=1` } }
        : // Now the server also reports its token window: spent, full again in 5 s.
          {
            status: 200,
            headers: {
              'x-ratelimit-limit-requests': '100',
              'x-ratelimit-remaining-requests': '90',
              'x-ratelimit-reset-requests': '100ms',
              'x-ratelimit-limit-tokens': '1000',
              'x-ratelimit-remaining-tokens': '0',
              'x-ratelimit-reset-tokens': '5s',
            },
          },
    );
    const fetch = createFetch({ fetch: server.fetch, clock, store: memoryStore({ clock }), random: () => 0 });
    for (let i = 0; i < 4; i++) await runUntilSettled(clock, [fetch(URL_A)], 5);
    expect(fetch.stats()[0]!.learned.unit).toBe('tokens');
    const start = clock.now();
    await runUntilSettled(clock, [fetch(URL_A)], 5);
    // The token window is spent until 5 s after the 4th answer.
    expect(server.seen[4]!.at - start).toBeGreaterThanOrEqual(4000);
  });
});

/**
 * The `cost` option is synchronous (`(request) => Cost`), and a malformed cost is an
 * `InvalidCostError` at the call (README: every call resolves or rejects with a documented error;
 * cost.ts `normalizeCost`: each unit a positive finite number). An `async` cost — a Promise, an
 * easy slip when the estimate reads something asynchronous — states no unit at all: it must be
 * refused with `HEADWAY_INVALID_COST`, not read as "1 request, tokens learned" with the estimate
 * dropped (and, when it rejects, its rejection left unhandled).
 */
import { describe, expect, it } from 'vitest';
import type { Cost } from '../../src/client/cost.js';
import { createFetch } from '../../src/client/create-fetch.js';

const answer = () =>
  new Response('{}', {
    headers: {
      'content-type': 'application/json',
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '500',
    },
  });

describe('cost: an async estimate', () => {
  it('is an InvalidCostError at the call, not a cost of 1 request', async () => {
    let sent = 0;
    const fetch = createFetch({
      fetch: async () => {
        sent++;
        return answer();
      },
      // What `async (req) => ({ tokens: await count(req) })` returns.
      cost: (async () => ({ tokens: 430 })) as unknown as () => Cost,
    });
    const settled = await fetch('https://api.example/v1/chat/completions', {
      method: 'POST',
      body: '{}',
    }).then(
      (response) => ({ status: response.status }),
      (error: unknown) => error,
    );
    expect(settled).toMatchObject({ code: 'HEADWAY_INVALID_COST' });
    expect(sent).toBe(0);
  });

  it('that rejects is an InvalidCostError at the call, its rejection handled', async () => {
    const fetch = createFetch({
      fetch: async () => answer(),
      cost: (() => Promise.reject(new Error('estimator down'))) as unknown as () => Cost,
    });
    const settled = await fetch('https://api.example/v1/chat/completions', {
      method: 'POST',
      body: '{}',
    }).then(
      (response) => ({ status: response.status }),
      (error: unknown) => error,
    );
    expect(settled).toMatchObject({ code: 'HEADWAY_INVALID_COST' });
    await new Promise((resolve) => setImmediate(resolve));
  });
});

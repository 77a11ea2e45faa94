/** `cost` by unit and the `settleCost` hook, through `createFetch` over an injected transport. */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { InvalidCostError, InvalidOptionError } from '../../src/errors.js';

const usage = JSON.stringify({ usage: { total_tokens: 412 } });
const answer = (status = 200) =>
  new Response(usage, {
    status,
    headers: {
      'content-type': 'application/json',
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '500',
    },
  });

describe('settleCost', () => {
  it('reads a clone after the caller has the response; the caller reads the body itself', async () => {
    const read: unknown[] = [];
    const fetch = createFetch({
      fetch: async () => answer(),
      settleCost: async (response) => {
        read.push(await response.json());
        return { tokens: 412 };
      },
    });
    const response = await fetch('https://api.example/v1/chat/completions', { method: 'POST', body: '{}' });
    expect(await response.json()).toEqual({ usage: { total_tokens: 412 } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(read).toEqual([{ usage: { total_tokens: 412 } }]);
  });

  it('a hook that never settles, or throws, delays and breaks nothing', async () => {
    for (const settleCost of [
      () => new Promise<undefined>(() => {}),
      () => Promise.reject(new Error('bad hook')),
    ]) {
      const fetch = createFetch({ fetch: async () => answer(), settleCost });
      const response = await fetch('https://api.example/v1/chat/completions');
      expect(await response.text()).toBe(usage);
    }
  });

  it('is not called for an error answer', async () => {
    let calls = 0;
    const fetch = createFetch({
      fetch: async () => answer(400),
      settleCost: () => {
        calls++;
        return undefined;
      },
    });
    expect((await fetch('https://api.example/v1/chat/completions')).status).toBe(400);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toBe(0);
  });

  it('must be a function', () => {
    expect(() => createFetch({ settleCost: 'usage' as never })).toThrow(InvalidOptionError);
  });
});

describe('cost by unit', () => {
  it('a malformed unit is an InvalidCostError at the call, naming the unit', async () => {
    const fetch = createFetch({ fetch: async () => answer(), cost: () => ({ tokens: -1 }) });
    await expect(fetch('https://api.example/')).rejects.toBeInstanceOf(InvalidCostError);
    await expect(fetch('https://api.example/')).rejects.toMatchObject({ unit: 'tokens' });
  });

  it('requests beyond the burst are refused as before', async () => {
    const fetch = createFetch({
      fetch: async () => answer(),
      rate: 10,
      burst: 2,
      cost: () => ({ requests: 3 }),
    });
    await expect(fetch('https://api.example/')).rejects.toMatchObject({ unit: 'requests', capacity: 2 });
  });
});

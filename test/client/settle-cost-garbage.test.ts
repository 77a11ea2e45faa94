import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';

const answer = () =>
  new Response('{}', {
    status: 200,
    headers: {
      'content-type': 'application/json',
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '500',
    },
  });

describe('settleCost returning garbage', () => {
  it('a cost that throws when read settles nothing, and raises no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const garbage = {
        get tokens(): number {
          throw new Error('usage not readable');
        },
      };
      const fetch = createFetch({ fetch: async () => answer(), settleCost: () => garbage });
      const response = await fetch('https://api.example/v1/chat/completions');
      expect(await response.text()).toBe('{}');
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});

/**
 * README "Client options": `hosts` is "per-host overrides, by host name (`'api.github.com'`) or
 * `host:port`", and "each entry is validated when the client is made. A name the table does not
 * list … is an `InvalidOptionError` naming it, never silently its default". An entry spelt as a
 * URL — `'https://api.test'`, copied from the base URL the user calls — can never be any request's
 * host (`keyOptionsFor` in `src/client/options.ts` looks up `url.host`, the default-port spelling
 * and `url.hostname`, never a scheme), yet it is accepted without a word: its `rate: 1, burst: 1`
 * silently never applies and every call goes unpaced.
 *
 * Fixed on 2026-12-06 (the fifth review round): a `hosts` name that is not a host (a URL, a path)
 * is an `InvalidOptionError` naming the entry when the client is made. What the text above
 * describes is how it behaved before.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';

describe('a hosts entry no host can match', () => {
  it('is refused when the client is made, or applies: never silently ignored', async () => {
    const clock = new ManualClock();
    let sent = 0;
    let made: ReturnType<typeof createFetch> | undefined;
    let refused: unknown;
    try {
      made = createFetch({
        clock,
        fetch: async () => {
          sent++;
          return new Response('ok');
        },
        hosts: { 'https://api.test': { rate: 1, burst: 1 } },
      });
    } catch (error) {
      refused = error;
    }
    if (made) {
      for (let i = 0; i < 3; i++) made('https://api.test/items').catch(() => {});
      await new Promise((resolve) => setImmediate(resolve));
    }
    const outcome =
      refused !== undefined ? { refusedTyped: isHeadwayError(refused, 'HEADWAY_INVALID_OPTION') } : { sent };
    expect([{ refusedTyped: true }, { sent: 1 }]).toContainEqual(outcome);
  });
});

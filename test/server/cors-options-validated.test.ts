/**
 * Every adapter takes `cors`: "`true` for any origin, or `{ origin: 'https://app.example' |
 * [...origins], maxAgeSeconds = 600 }`" (README, "CORS (browser clients)"). Nothing checks it
 * (src/server/cors.ts `resolved()`; `withRateLimit`, `fetchRateLimit`, `nodeRateLimit`,
 * `expressRateLimit`, `honoRateLimit`, `startServer`): a string origin (`cors: 'https://app.example'`)
 * or a misspelt `origins` is read as `{}`, which allows ANY origin (`Access-Control-Allow-Origin: *`,
 * the opposite of what was asked); a bad `maxAgeSeconds` is written as is (`Access-Control-Max-Age:
 * -5`, `ten`); and a non-string origin throws a `TypeError` on every request instead of a typed
 * error once. Bad options must be an `InvalidOptionError` naming them when the adapter is made.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { withRateLimit } from '../../src/server/adapters/fetch.js';
import type { CorsOption } from '../../src/server/cors.js';
import { rateLimit } from '../../src/server/rate-limit.js';

const clock = new ManualClock(0, Date.UTC(2026, 0, 1));
const handler = () => new Response('ok');

/** What making the adapter with `cors` throws (`undefined`: nothing). */
function madeWith(cors: unknown): unknown {
  try {
    withRateLimit(rateLimit({ clock }), handler, { cors: cors as CorsOption });
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('cors options are validated when the adapter is made', () => {
  it.each([
    ['a string origin', 'https://app.example', 'cors'],
    ['a misspelt `origins`', { origins: ['https://app.example'] }, 'cors.origins'],
    ['a non-string origin', { origin: 5 }, 'cors.origin'],
    ['a negative maxAgeSeconds', { maxAgeSeconds: -5 }, 'cors.maxAgeSeconds'],
    ['a string maxAgeSeconds', { maxAgeSeconds: 'ten' }, 'cors.maxAgeSeconds'],
  ])('%s is an InvalidOptionError naming it', (_what, cors, option) => {
    expect(madeWith(cors)).toMatchObject({ code: 'HEADWAY_INVALID_OPTION', option });
  });

  it('a restriction written as a string never widens to any origin', async () => {
    let limited: ReturnType<typeof withRateLimit> | undefined;
    try {
      limited = withRateLimit(rateLimit({ clock }), handler, { cors: 'https://app.example' as never });
    } catch {
      return; // refused at construction: the fix
    }
    const answer = await limited(
      new Request('http://api.test/', { headers: { origin: 'https://evil.example' } }),
      {
        ip: '192.0.2.1',
      },
    );
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });
});

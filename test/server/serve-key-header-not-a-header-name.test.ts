/**
 * `startServer`'s `keyHeader` (`headway serve --key-header NAME`, README: "key requests by this
 * header's value") is now checked when the server starts (src/server/serve.ts: `invalid('keyHeader',
 * 'a header name', …)`), as the README promises for options: a bad one is an `InvalidOptionError`,
 * "never silently its default".
 *
 * Only `''` is refused. A name no request can carry — `'X-Tenant '` with the trailing space of a
 * config file, `'x tenant'`, a name with a newline — starts the server, and every request then
 * falls back to the default key (its IP): clients with different keys share one quota, silently.
 *
 * Fixed on 2026-12-06 (a review of the day's changes): `keyHeader` must be a header name (a token):
 * `'X-Tenant '` is an `InvalidOptionError`. What the text above describes is how it behaved before.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';
import { startServer } from '../../src/server/serve.js';

describe('startServer with a keyHeader that is no header name', () => {
  it("is refused, or keys requests by the header it names ('X-Tenant ')", async () => {
    const started = await startServer({
      port: 0,
      host: '127.0.0.1',
      rate: 1,
      burst: 1,
      clock: new ManualClock(),
      keyHeader: 'X-Tenant ',
    }).then(
      (server) => server,
      (error: unknown) => error,
    );
    if (isHeadwayError(started, 'HEADWAY_INVALID_OPTION')) return; // refused: what the check promises
    const server = started as Awaited<ReturnType<typeof startServer>>;
    try {
      const statuses: number[] = [];
      for (const key of ['tenant-a', 'tenant-b']) {
        const response = await fetch(server.url, { headers: { 'X-Tenant': key } });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      expect(statuses).toEqual([200, 200]);
    } finally {
      await server.close();
    }
  });
});

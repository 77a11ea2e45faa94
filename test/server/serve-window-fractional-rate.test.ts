/**
 * `headway serve --rate N` is "requests per second" (README, `headway serve`); with a window
 * algorithm and no `--burst`, the window's limit derives from it as `rate · window`. A rate whose
 * `rate · window` is not a whole number of requests must not silently become another rate: either
 * the option is refused with a clear error, or the server admits no more than the rate asked for.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';
import { startServer } from '../../src/server/serve.js';

describe('startServer with a window algorithm and a rate below one per window', () => {
  it.each(['sliding-log', 'fixed-window', 'sliding-window-counter'] as const)(
    '%s, rate 0.001 (one request per 1000 s): a second request 2 s after the first is refused',
    async (algorithm) => {
      const clock = new ManualClock();
      const started = await startServer({ clock, algorithm, rate: 0.001 }).then(
        (server) => server,
        (error: unknown) => error,
      );
      if (!('url' in (started as object))) {
        // Refusing the option outright is also correct, with the one typed error shape.
        expect(isHeadwayError(started) && started.code).toBe('HEADWAY_INVALID_OPTION');
        return;
      }
      const server = started as Awaited<ReturnType<typeof startServer>>;
      try {
        const first = await fetch(server.url);
        await first.arrayBuffer();
        expect(first.status).toBe(200);
        await clock.advance(2_000);
        const second = await fetch(server.url);
        await second.arrayBuffer();
        expect(second.status).toBe(429);
      } finally {
        await server.close();
      }
    },
  );
});

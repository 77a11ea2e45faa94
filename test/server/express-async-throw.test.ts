import express from 'express';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { expressRateLimit } from '../../src/server/adapters/express.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { listen } from './loopback.js';

/**
 * A response already sent by an earlier middleware (e.g. a timeout middleware that answered 503
 * while the store was slow, then let the chain go on): setting the rate-limit headers then throws
 * ERR_HTTP_HEADERS_SENT. With a synchronous decision Express catches that and hands it to the
 * error middleware; with an asynchronous one (async `key`, `policyFor` or store) the same error
 * must go to `next` too, not become an unhandled rejection (which ends a default Node process).
 */
describe('expressRateLimit when the response was already sent', () => {
  for (const asynchronous of [false, true]) {
    it(`hands the error to next, not to an unhandled rejection (${asynchronous ? 'async' : 'sync'} key)`, async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      const toNext: unknown[] = [];
      let settle: () => void = () => {};
      const handled = new Promise<void>((resolve) => {
        settle = resolve;
      });
      const app = express();
      app.use((_req, res, next) => {
        res.status(503).end('timed out');
        next();
      });
      app.use(
        expressRateLimit(
          rateLimit({
            clock: new ManualClock(),
            key: asynchronous ? () => Promise.resolve('k') : () => 'k',
          }),
        ),
      );
      app.use((error: unknown, _req: express.Request, _res: express.Response, next: express.NextFunction) => {
        toNext.push(error);
        settle();
        next(error);
      });
      const server = await listen(app.listen(0, '127.0.0.1'));
      try {
        const response = await fetch(server.url);
        expect(response.status).toBe(503);
        await response.text();
        // Whichever comes: the error middleware, or an unhandled rejection (a few turns later).
        await Promise.race([
          handled,
          new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve))),
        ]);
        await new Promise<void>((resolve) => setImmediate(resolve));
        expect(unhandled).toEqual([]);
        expect(toNext).toHaveLength(1);
        expect(toNext[0]).toMatchObject({ code: 'ERR_HTTP_HEADERS_SENT' });
      } finally {
        process.off('unhandledRejection', onUnhandled);
        await server.close();
      }
    });
  }
});

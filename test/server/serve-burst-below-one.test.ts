/**
 * `headway serve --burst 0.5` (startServer's `burst`): every request the reference server answers
 * costs one unit, so a burst below 1 can never admit anything. Options are validated when the
 * limiter is made (README, Server options: "a bad one throws `HEADWAY_INVALID_OPTION` with a fix"),
 * so this must be refused at start, not turn every answer into a bare 500.
 */
import { describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../src/cli/serve-args.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';
import { startServer } from '../../src/server/serve.js';

describe('headway serve --burst below the one unit a request costs', () => {
  it.each(['token-bucket', 'fixed-window'] as const)(
    '%s, --burst 0.5: refused at start with HEADWAY_INVALID_OPTION',
    async (algorithm) => {
      const options = parseServeArgs(['--burst', '0.5', '--algorithm', algorithm]);
      const started = await startServer({ ...options, clock: new ManualClock() }).then(
        (server) => server,
        (error: unknown) => error,
      );
      if (started && typeof started === 'object' && 'url' in started) {
        const server = started as Awaited<ReturnType<typeof startServer>>;
        const response = await fetch(server.url);
        await response.arrayBuffer();
        await server.close();
        expect.fail(`started, and answered a request ${response.status}`);
      }
      expect(isHeadwayError(started) && started.code).toBe('HEADWAY_INVALID_OPTION');
    },
  );
});

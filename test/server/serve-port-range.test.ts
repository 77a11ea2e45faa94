/**
 * A port above 65535 (or not a whole number) given to `startServer` / `headway serve --port` /
 * `--metrics-port`: bad input gets the one typed error (`HEADWAY_INVALID_OPTION`, like `port: -1`
 * does), and the CLI's message names the flag the user gave, not Node's internal `options.port`.
 */
import { describe, expect, it } from 'vitest';
import { serve } from '../../src/cli/serve.js';
import { isHeadwayError } from '../../src/errors.js';
import { startServer } from '../../src/server/serve.js';

describe('startServer and headway serve: a port out of range', () => {
  it.each([70_000, 1.5])(
    'startServer({ port: %s }) rejects with HEADWAY_INVALID_OPTION naming `port`',
    async (port) => {
      const error = await startServer({ port }).then(
        async (server) => {
          await server.close();
          return undefined;
        },
        (e: unknown) => e,
      );
      expect(isHeadwayError(error) && error.code).toBe('HEADWAY_INVALID_OPTION');
      expect((error as Error).message).toContain('`port`');
    },
  );

  it('headway serve --metrics-port 70000: the message names --metrics-port', async () => {
    const error = await serve(['--port', '0', '--metrics-port', '70000']).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toMatch(/metrics-port|metricsPort/);
  });
});

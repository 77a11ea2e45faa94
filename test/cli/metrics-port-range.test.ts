/**
 * `headway serve --metrics-port N` (README `headway serve` flags; conventions: one message shape,
 * naming the option at fault). A value that is a number but not a port is refused with a message
 * naming `--metrics-port`, as `headway demo --port` does ("--port expects a port number") — not
 * Node's `options.port should be >= 0 and < 65536`, which a user reads as `--port`.
 */
import { describe, expect, it } from 'vitest';
import { serve } from '../../src/cli/serve.js';

describe('headway serve --metrics-port out of range', () => {
  it.each(['65536', '1.5'])('--metrics-port %s is refused naming --metrics-port', async (value) => {
    const error = await serve(['--port', '0', '--metrics-port', value]).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error?.message).toContain('--metrics-port');
  });
});

/**
 * Flag values that parse as numbers but mean nothing: each is refused with a clear message, or
 * gives a well-formed answer.
 */
import { describe, expect, it } from 'vitest';
import { parseDemoArgs } from '../../src/cli/demo/demo-args.js';
import { parseServeArgs } from '../../src/cli/serve-args.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { startServer } from '../../src/server/index.js';

describe('flag values', () => {
  it('headway demo --port "" is refused like any non-number, not read as port 0', () => {
    expect(() => parseDemoArgs(['--port', ''])).toThrow('--port expects a port number, got ""');
    expect(() => parseDemoArgs(['--port', ' '])).toThrow('--port expects a port number, got " "');
  });

  it('headway serve --clock-skew-ms 1e20: refused, or every answer still carries a valid Date header', async () => {
    const options = parseServeArgs(['--clock-skew-ms', '1e20']);
    const started = await startServer({ ...options, port: 0, clock: new ManualClock() }).then(
      (server) => server,
      (error: unknown) => error as Error,
    );
    if (started instanceof Error) {
      expect(started.message).toMatch(/clockSkewMs/);
      return;
    }
    try {
      const response = await fetch(started.url);
      await response.arrayBuffer();
      const date = response.headers.get('date');
      expect(date).not.toBe('Invalid Date');
      expect(Number.isNaN(Date.parse(date ?? ''))).toBe(false);
    } finally {
      await started.close();
    }
  });
});

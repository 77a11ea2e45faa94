import { describe, expect, it } from 'vitest';
import { parseDemoArgs } from '../../src/cli/demo/demo-args.js';

describe('headway demo flags', () => {
  it('defaults, and every flag read', () => {
    expect(parseDemoArgs([])).toEqual({
      live: false,
      host: '127.0.0.1',
      port: 0,
      out: 'headway-demo-report.html',
    });
    expect(parseDemoArgs(['--live', '--port', '8080', '--host', '::1', '--out', 'r.html'])).toEqual({
      live: true,
      host: '::1',
      port: 8080,
      out: 'r.html',
    });
  });

  it('rejects a bad port and unknown flags with a clear message', () => {
    expect(() => parseDemoArgs(['--port', '70000'])).toThrow('--port expects a port number, got "70000"');
    expect(() => parseDemoArgs(['--port', 'x'])).toThrow('--port expects a port number, got "x"');
    expect(() => parseDemoArgs(['--fast'])).toThrow(/--fast/);
  });
});

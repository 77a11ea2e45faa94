import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBatchArgs } from '../../src/cli/batch-args.js';
import { parseInput } from '../../src/cli/batch-input.js';
import { readRecorded } from '../../src/cli/batch-output.js';

describe('headway batch input', () => {
  it('reads URLs and NDJSON requests, skips blanks and comments, and reports malformed lines by number', () => {
    const text = [
      'https://api.test/a',
      '',
      '# a comment',
      '{"method":"post","url":"https://api.test/b","headers":{"X-Id":"7"},"body":{"n":1}}',
      '{"method":"PUT","url":"https://api.test/c","body":"raw"}\r',
      'ftp://api.test/d',
      '{"url": 5}',
      '{"url":"https://api.test/e","headers":{"x":1}}',
      '{not json',
      '[1]',
      '{"url":"https://api.test/f","method":"GE T"}',
      '{"url":"https://api.test/g","body":"a GET cannot carry"}',
      'http://api.test:6000/h',
    ].join('\n');
    expect(parseInput(`${text}\n`)).toEqual([
      { kind: 'request', line: 1, method: 'GET', url: 'https://api.test/a', headers: {}, body: undefined },
      null,
      null,
      {
        kind: 'request',
        line: 4,
        method: 'POST',
        url: 'https://api.test/b',
        headers: { 'x-id': '7', 'content-type': 'application/json' },
        body: '{"n":1}',
      },
      { kind: 'request', line: 5, method: 'PUT', url: 'https://api.test/c', headers: {}, body: 'raw' },
      { kind: 'malformed', line: 6, reason: 'not an http(s) URL: "ftp://api.test/d"' },
      { kind: 'malformed', line: 7, reason: '`url` must be a string' },
      { kind: 'malformed', line: 8, reason: 'header "x" must be a string' },
      { kind: 'malformed', line: 9, reason: expect.stringMatching(/^invalid JSON: /) },
      { kind: 'malformed', line: 10, reason: 'not a URL: "[1]"' },
      { kind: 'malformed', line: 11, reason: '`method` must be a method name' },
      { kind: 'malformed', line: 12, reason: expect.stringMatching(/^fetch refuses it: .*body/) },
      { kind: 'malformed', line: 13, reason: 'fetch refuses it: port 6000 is blocked (a "bad port")' },
    ]);
  });

  it('flags: defaults, and usage errors', () => {
    expect(parseBatchArgs(['in.txt'])).toMatchObject({
      input: 'in.txt',
      out: undefined,
      concurrency: 16,
      workers: 1,
      keepHeaders: ['content-type', 'retry-after'],
    });
    expect(parseBatchArgs(['in.txt', '--keep-headers', 'ETag, RateLimit', '--rate', '5'])).toMatchObject({
      keepHeaders: ['etag', 'ratelimit'],
      rate: 5,
    });
    expect(() => parseBatchArgs([])).toThrow('expects exactly one <input>');
    expect(() => parseBatchArgs(['in.txt', '--redis', 'redis://x'])).toThrow('--redis needs --rate');
    expect(() => parseBatchArgs(['in.txt', '--concurrency', '0'])).toThrow(
      '--concurrency expects a whole number',
    );
    expect(() => parseBatchArgs(['in.txt', '--rate', 'fast'])).toThrow('--rate expects a number, got "fast"');
    expect(() => parseBatchArgs(['in.txt', '--nope'])).toThrow();
  });
});

describe('headway batch results file', () => {
  it('knows the recorded lines and failures, and cuts a last line left half-written by a crash', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'headway-recorded-'));
    try {
      const file = join(dir, 'out.ndjson');
      const ok = { status: 200, attempts: 1, waitedMs: 0, error: null };
      const rows = [
        JSON.stringify({ line: 3, ...ok }),
        JSON.stringify({ line: 1, ...ok, status: 404 }),
        JSON.stringify({
          line: 2,
          status: null,
          attempts: 0,
          waitedMs: 0,
          error: { code: 'X', message: 'x' },
        }),
      ];
      await writeFile(file, `${rows.join('\n')}\n{"line":4,"sta`);
      expect(await readRecorded(file)).toEqual({ lines: new Set([3, 1, 2]), failed: 2 });
      expect(await readFile(file, 'utf8')).toBe(`${rows.join('\n')}\n`);
      expect(await readRecorded(join(dir, 'missing.ndjson'))).toEqual({ lines: new Set(), failed: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHeadway } from '../support/run-child.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'headway-cli-flag-names-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The error line (the first stderr line; the usage follows it). */
const firstLine = (stderr: string) => stderr.split('\n')[0] ?? '';

describe('CLI flag errors name the flag', () => {
  it('headway serve --algorithm sliding-log --burst 10 --window-ms 0: the error names --window-ms', async () => {
    const result = await runHeadway(
      ['serve', '--algorithm', 'sliding-log', '--burst', '10', '--window-ms', '0'],
      15_000,
    );
    expect(result.code).toBe(2);
    expect(firstLine(result.stderr)).toContain('--window-ms');
  }, 30_000);

  it('headway serve --latency-ms=-1: the error names --latency-ms', async () => {
    const result = await runHeadway(['serve', '--latency-ms=-1'], 15_000);
    expect(result.code).toBe(2);
    expect(firstLine(result.stderr)).toContain('--latency-ms');
  }, 30_000);

  it('headway batch --max-retry-after=-1: the error names --max-retry-after', async () => {
    const input = join(dir, 'urls.txt');
    await writeFile(input, 'http://127.0.0.1:1/a\n');
    const result = await runHeadway(['batch', input, '--max-retry-after=-1'], 15_000);
    expect(result.code).toBe(2);
    expect(firstLine(result.stderr)).toContain('--max-retry-after');
  }, 30_000);
});

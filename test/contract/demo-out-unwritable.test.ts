import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHeadway } from '../support/run-child.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'headway-demo-out-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('headway demo --out that cannot be written', () => {
  it('is refused before the run, or the measured summary is still printed', async () => {
    const { code, stdout, stderr } = await runHeadway(['demo', '--out', dir], 50_000);
    expect(stderr).toMatch(/^headway demo: .*EISDIR/m);
    expect(code).toBe(2);
    const ran = /^t=\d/m.test(stdout);
    const summarized = stdout.includes('429 share');
    expect({ ran, summarized: ran && summarized }).toEqual({ ran, summarized: ran });
  }, 60_000);
});

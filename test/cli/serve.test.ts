import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

describe('headway serve (CLI)', () => {
  it('prints its URL, serves with the chosen options, logs counts and exits 0 on SIGINT', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/main.ts',
        'serve',
        '--port',
        '0',
        '--rate',
        '1',
        '--burst',
        '2',
        '--headers',
        'draft-6',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = once(child, 'exit');
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const url = line.match(/^headway serve listening on (http:\/\/127\.0\.0\.1:\d+)$/)?.[1];
      expect(url).toBeDefined();
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await fetch(url!);
        statuses.push(response.status);
        expect(response.headers.get('ratelimit-limit')).toBe('2');
      }
      expect(statuses).toEqual([200, 200, 429]);
      for (let i = 0; i < 40 && !stderr.includes('refused='); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(stderr).toMatch(/allowed=2 refused=1 wouldRefuse=0/);
    } finally {
      child.kill('SIGINT');
    }
    const [code] = await exited;
    expect(code).toBe(0);
  }, 20_000);

  it('rejects a bad flag with usage and exit code 2', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--algorithm', 'leaky'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toContain("Expected `--algorithm` to be one of 'token-bucket'");
    expect(stderr).toContain('usage: headway serve');
  }, 20_000);
});

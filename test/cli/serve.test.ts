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
        '0.001', // one unit back per 1000 s: the third request is refused however slow the machine
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
      // Counts are logged once a second, so the three may be split over two lines: add them up.
      const logged = () => {
        const total = { allowed: 0, refused: 0, wouldRefuse: 0 };
        for (const [, a, r, w] of stderr.matchAll(/allowed=(\d+) refused=(\d+) wouldRefuse=(\d+)/g)) {
          total.allowed += Number(a);
          total.refused += Number(r);
          total.wouldRefuse += Number(w);
        }
        return total;
      };
      while (logged().allowed + logged().refused < 3) await once(child.stderr, 'data');
      expect(logged()).toEqual({ allowed: 2, refused: 1, wouldRefuse: 0 });
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

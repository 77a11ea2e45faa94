import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
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

  it('--metrics-port: a scrape parses as Prometheus text with the decisions by policy', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/main.ts',
        'serve',
        '--port',
        '0',
        '--metrics-port',
        '0',
        '--rate',
        '0.001',
        '--burst',
        '2',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = once(child, 'exit');
    try {
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const url = (await lines.next()).value?.match(/listening on (\S+)$/)?.[1];
      const metricsUrl = (await lines.next()).value?.match(/^headway serve metrics on (\S+)$/)?.[1];
      expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      for (let i = 0; i < 3; i++) await (await fetch(url!)).arrayBuffer();
      const scrape = await fetch(metricsUrl!);
      expect(scrape.headers.get('content-type')).toContain('text/plain');
      const families = parsePrometheusTextFormat(await scrape.text());
      const decisions = families.find((f) => f.name === 'headway_server_decisions_total');
      expect(decisions?.type).toBe('COUNTER');
      const count = (decision: string) =>
        decisions?.metrics.find(
          (m) => m.labels?.headway_decision === decision && m.labels?.headway_policy === 'default',
        )?.value;
      expect(count('allowed')).toBe('2');
      expect(count('refused')).toBe('1');
      const refusedKeys = families.find((f) => f.name === 'headway_server_refused_keys');
      expect(refusedKeys?.type).toBe('GAUGE');
      expect(refusedKeys?.metrics[0]?.value).toBe('1');
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

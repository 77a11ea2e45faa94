/**
 * `headway batch` as a child process against the reference server on loopback: stopped by SIGINT
 * halfway and resumed, and four runners sharing one quota through Redis.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BatchResult } from '../../src/cli/batch-result.js';
import { type RunningServer, startServer } from '../../src/server/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'headway-batch-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function runBatch(args: string[]): {
  child: ChildProcess;
  exit: Promise<{ code: number | null; stderr: string }>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'batch', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exit = once(child, 'exit').then(([code]) => ({ code: code as number | null, stderr }));
  return { child, exit };
}

async function results(file: string): Promise<BatchResult[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as BatchResult);
}

/** The reference server, counting requests per path (every attempt, refused ones too). */
async function countingServer(rate: number, burst: number) {
  const counts = new Map<string, number>();
  const server: RunningServer = await startServer({
    rate,
    burst,
    limiter: {
      key: (request) => {
        const path = new URL(request.url, 'http://x').pathname;
        counts.set(path, (counts.get(path) ?? 0) + 1);
        return 'everyone';
      },
    },
  });
  return { server, counts };
}

describe('headway batch (CLI)', () => {
  it('SIGINT halfway, then a re-run: every line exactly once, nothing requested twice, a malformed line reported', async () => {
    const { server, counts } = await countingServer(50, 10);
    try {
      const input = join(dir, 'urls.txt');
      const out = join(dir, 'results.ndjson');
      const lines = Array.from({ length: 300 }, (_, i) => `${server.url}/items/${i + 1}`);
      lines.splice(100, 0, 'this is not a url'); // line 101
      await writeFile(input, `${lines.join('\n')}\n`);
      const args = [input, '--out', out, '--rate', '50', '--burst', '10', '--concurrency', '8'];

      const first = runBatch(args);
      // Signal once about half the results are written (polled, not timed).
      let written = 0;
      while (written < 150) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        written = (await results(out)).length;
        expect(first.child.exitCode).toBeNull();
      }
      first.child.kill('SIGINT');
      const stopped = await first.exit;
      expect(stopped.code).toBe(130);
      expect(stopped.stderr).toContain('line 101: malformed, skipped');
      const firstRun = await results(out);
      expect(firstRun.length).toBeGreaterThanOrEqual(150);
      expect(firstRun.length).toBeLessThan(301);
      // Nothing fetched was lost: every path the server saw is in the output, and only those.
      const seenFirst = new Map(counts);
      const fetched = firstRun.filter((r) => r.url).map((r) => new URL(r.url as string).pathname);
      expect(new Set(fetched)).toEqual(new Set(seenFirst.keys()));

      const second = await runBatch(args).exit;
      expect(second.code).toBe(1); // done; the malformed line is the one result that is not ok
      expect(second.stderr).not.toContain('malformed');
      const all = await results(out);
      expect(all.map((r) => r.line).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 301 }, (_, i) => i + 1),
      );
      expect(all.find((r) => r.line === 101)?.error?.code).toBe('HEADWAY_BATCH_MALFORMED_LINE');
      for (const r of all.filter((x) => x.line !== 101)) {
        expect(r).toMatchObject({ status: 200, error: null, body: '{"ok":true}' });
        expect(r.attempts).toBeGreaterThanOrEqual(1);
      }
      // Not one request again after the resume point, and every one was requested.
      for (const path of seenFirst.keys()) expect(counts.get(path)).toBe(seenFirst.get(path));
      expect(counts.size).toBe(300);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('a usage error exits 2 with the usage', async () => {
    const run = await runBatch([join(dir, 'missing.txt'), '--redis', 'redis://127.0.0.1:1']).exit;
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('headway batch: --redis needs --rate');
    expect(run.stderr).toContain('exit codes: 0 every request answered');
  }, 20_000);

  it('four runners sharing --redis: at most 1 % refused', async () => {
    const { server, counts } = await countingServer(50, 10);
    try {
      const key = `batch-cli-${process.pid}-${Date.now()}`;
      const runs = await Promise.all(
        [0, 1, 2, 3].map(async (runner) => {
          const input = join(dir, `runner-${runner}.txt`);
          const out = join(dir, `runner-${runner}.ndjson`);
          const urls = Array.from({ length: 50 }, (_, i) => `${server.url}/r${runner}/${i}`);
          await writeFile(input, `${urls.join('\n')}\n`);
          const args = [input, '--out', out, '--rate', '50', '--burst', '10', '--workers', '4'];
          const run = await runBatch([...args, '--key', key, '--redis', inject('redisUrl')]).exit;
          return { ...run, results: await results(out) };
        }),
      );
      for (const run of runs) {
        expect(run.code, run.stderr).toBe(0);
        expect(run.results).toHaveLength(50);
      }
      const requests = [...counts.values()].reduce((a, b) => a + b, 0);
      expect(counts.size).toBe(200);
      expect(server.metrics().refused).toBeLessThanOrEqual(Math.floor(requests * 0.01));
    } finally {
      await server.close();
    }
  }, 60_000);
});

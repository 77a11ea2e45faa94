/**
 * `headway batch --redis URL` when Redis goes away during the run: the run goes on (the shared
 * quota falls back to local pacing), every request is answered and written, and the command
 * ends. Closing a Redis connection that is down must not leave the process reconnecting forever.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';

// This file kills Redis, so it runs its own server, never REDIS_URL's.
let redis: RedisServer;
let http: Server;
let dir: string;

beforeAll(async () => {
  redis = await startRedisServer();
  dir = await mkdtemp(join(tmpdir(), 'headway-batch-redis-gone-'));
}, 15_000);
afterAll(async () => {
  http?.close();
  await redis.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('headway batch --redis, Redis killed during the run', () => {
  it('writes every result and exits, instead of reconnecting to the dead Redis forever', async () => {
    // The origin kills Redis while it holds the only request, then answers 200.
    http = createServer((_request, response) => {
      void redis.kill().then(() => response.end('ok'));
    });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const { port } = http.address() as { port: number };
    const input = join(dir, 'urls.txt');
    const out = join(dir, 'out.ndjson');
    await writeFile(input, `http://127.0.0.1:${port}/a\n`);

    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/main.ts',
        'batch',
        input,
        '--rate',
        '5',
        '--redis',
        redis.url,
        '--out',
        out,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = once(child, 'exit').then(([code]) => code as number | null);
    // A loose bound: the run is one request; a CLI still running after 15 s never ends.
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await exited;
    clearTimeout(killer);

    const lines = (await readFile(out, 'utf8')).split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ line: 1, status: 200 });
    expect(code, stderr).toBe(0);
  }, 30_000);
});

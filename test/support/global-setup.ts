/**
 * Once per `vitest run`: makes sure `redis-server` can run (installing Debian's package when it is
 * missing and this is root with `apt-get`), then provides the Redis the test files share as
 * `inject('redisUrl')`: `REDIS_URL` when set, else one private redis-server, stopped at teardown.
 * Files that kill or restart Redis start their own with `startRedisServer`.
 */
import { spawnSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { assertRedisServerInstalled, redisServerInstalled, startRedisServer } from './redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the Redis shared by the files that do not kill it. */
    redisUrl: string;
  }
}

/** `apt-get install redis-server` when it is missing and this process may do so; else nothing. */
function installRedisServerIfMissing(): void {
  if (redisServerInstalled() || process.getuid?.() !== 0) return;
  if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) return;
  console.log('redis-server is not installed: installing Debian’s redis-server with apt-get');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'redis-server'],
  ]) {
    spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  installRedisServerIfMissing();
  assertRedisServerInstalled();
  if (process.env.REDIS_URL) {
    project.provide('redisUrl', process.env.REDIS_URL);
    return undefined;
  }
  const server = await startRedisServer();
  project.provide('redisUrl', server.url);
  return () => server.stop();
}

/** Machine and version facts for the report. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

export const peers = [
  'p-retry',
  'ky',
  'got',
  'undici',
  'bottleneck',
  'p-queue',
  'rate-limiter-flexible',
  'express-rate-limit',
  'express',
  '@fastify/rate-limit',
  'fastify',
  'ioredis',
] as const;

function versionOf(name: string): string {
  try {
    const pkg = JSON.parse(
      readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8'),
    );
    return String(pkg.version);
  } catch {
    return 'not installed';
  }
}

export function peerVersions(): Record<string, string> {
  return Object.fromEntries(peers.map((name) => [name, versionOf(name)]));
}

export function redisVersion(): string {
  try {
    return execFileSync('redis-server', ['--version'], { encoding: 'utf8' }).match(/v=(\S+)/)?.[1] ?? '?';
  } catch {
    return 'not installed';
  }
}

export function machine(): { nproc: number; cpu: string; node: string; platform: string } {
  return {
    nproc: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
  };
}

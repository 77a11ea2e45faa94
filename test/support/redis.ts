/**
 * The Redis the tests share: `REDIS_URL` when set (as `.ci/run` does), else the run's private
 * redis-server (`global-setup.ts` starts it, and stops it by pid afterwards).
 */
import { inject } from 'vitest';

/** URL of the suite's shared Redis. */
export const redisUrl = (): string => inject('redisUrl');

/** A unique key prefix per test run, so runs sharing one Redis never see each other's keys. */
export function uniquePrefix(label: string): string {
  return `headway-test-${label}-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Redis's own clock (`TIME`, the clock the scripts read), in ms. */
export async function redisTimeMs(client: { time(): Promise<unknown> }): Promise<number> {
  const [seconds, micros] = (await client.time()) as [string | number, string | number];
  return Number(seconds) * 1000 + Number(micros) / 1000;
}

/** Reads a Headway state key: its string of little-endian doubles (`struct.pack('<d…')`), as numbers. */
export async function readState(
  client: { getBuffer(key: string): Promise<Buffer | null> },
  name: string,
): Promise<number[]> {
  const value = await client.getBuffer(name);
  if (value === null) return [];
  return Array.from({ length: value.length / 8 }, (_, i) => value.readDoubleLE(8 * i));
}

/** Writes a Headway state key as its script would (keeping its TTL). */
export async function writeState(
  client: { set(key: string, value: Buffer, keepTtl: 'KEEPTTL'): Promise<unknown> },
  name: string,
  values: readonly number[],
): Promise<void> {
  const value = Buffer.alloc(8 * values.length);
  for (const [i, x] of values.entries()) value.writeDoubleLE(x, 8 * i);
  await client.set(name, value, 'KEEPTTL');
}

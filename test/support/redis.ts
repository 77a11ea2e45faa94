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

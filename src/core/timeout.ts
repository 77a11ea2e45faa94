import type { Clock } from './clock.js';

/**
 * The one timeout race over an injected clock: `work()`, or a rejection with `timeoutError()` once
 * `timeoutMs` have passed on `clock`, whichever comes first. The timeout's sleep is aborted as soon
 * as the race settles, so no timer is left behind. A `work` that throws rejects like one that
 * rejects.
 */
export async function withTimeout<T>(
  work: () => Promise<T>,
  clock: Clock,
  timeoutMs: number,
  timeoutError: () => Error,
): Promise<T> {
  const done = new AbortController();
  const timeout = clock.sleep(timeoutMs, done.signal).then(
    () => Promise.reject(timeoutError()),
    () => new Promise<never>(() => {}),
  );
  try {
    return await Promise.race([Promise.resolve().then(work), timeout]);
  } finally {
    done.abort();
  }
}

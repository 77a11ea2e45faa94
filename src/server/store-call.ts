import type { Clock } from '../core/clock.js';
import { isHeadwayError, StoreError, StoreTimeoutError } from '../errors.js';

/**
 * Runs a store call bounded by `timeoutMs` on `clock`. Rejects with {@link StoreTimeoutError} when
 * the store is too slow and {@link StoreError} (original in `cause`) when it fails. The timeout's
 * sleep is aborted as soon as the call settles, so no timer is left behind.
 */
export async function callStore<T>(
  key: string,
  work: () => Promise<T>,
  clock: Clock,
  timeoutMs: number,
): Promise<T> {
  const done = new AbortController();
  const timeout = clock.sleep(timeoutMs, done.signal).then(
    () => Promise.reject(new StoreTimeoutError(key, timeoutMs)),
    () => new Promise<never>(() => {}),
  );
  const call = Promise.resolve()
    .then(work)
    .catch((error: unknown) => Promise.reject(isHeadwayError(error) ? error : new StoreError(key, error)));
  try {
    return await Promise.race([call, timeout]);
  } finally {
    done.abort();
  }
}

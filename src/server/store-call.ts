import type { Clock } from '../core/clock.js';
import { withTimeout } from '../core/timeout.js';
import { isHeadwayError, StoreError, StoreTimeoutError } from '../errors.js';

/**
 * Runs a store call bounded by `timeoutMs` on `clock`. Rejects with {@link StoreTimeoutError} when
 * the store is too slow and {@link StoreError} (original in `cause`) when it fails.
 */
export function callStore<T>(
  key: string,
  work: () => Promise<T>,
  clock: Clock,
  timeoutMs: number,
): Promise<T> {
  return withTimeout(
    () =>
      Promise.resolve()
        .then(work)
        .catch((error: unknown) =>
          Promise.reject(isHeadwayError(error) ? error : new StoreError(key, error)),
        ),
    clock,
    timeoutMs,
    () => new StoreTimeoutError(key, timeoutMs),
  );
}

import { AbortError } from '../errors.js';

/**
 * Time as Headway sees it. Every module takes a `Clock` instead of reading `Date.now()` or
 * `performance.now()`, so tests pass time in and never sleep.
 */
export interface Clock {
  /** Monotonic milliseconds, for pacing and timeouts. Never steps back on the system clock. */
  now(): number;
  /** Wall-clock epoch milliseconds, for HTTP dates and epoch resets. */
  wallNow(): number;
  /** Resolves after `ms`; rejects with {@link AbortError} as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: `performance.now()`, `Date.now()` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => performance.now(),
  wallNow: () => Date.now(),
  sleep(ms, signal) {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new AbortError(signal.reason));
      if (ms <= 0) return resolve();
      const onAbort = () => {
        clearTimeout(timer);
        reject(new AbortError(signal?.reason));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
};

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

/** Rejects at once if `signal` is already aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError(signal.reason);
}

/** Longest delay `setTimeout` keeps (2³¹−1 ms, ~24.8 days); beyond it Node fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The real clock: `performance.now()`, `Date.now()` and `setTimeout` (chained past its limit). */
export const systemClock: Clock = {
  now: () => performance.now(),
  wallNow: () => Date.now(),
  sleep(ms, signal) {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new AbortError(signal.reason));
      if (!(ms > 0)) return resolve();
      const until = performance.now() + ms;
      let timer: ReturnType<typeof setTimeout>;
      const onAbort = () => {
        clearTimeout(timer);
        reject(new AbortError(signal?.reason));
      };
      const wait = (left: number) => {
        timer = setTimeout(
          () => {
            const rest = until - performance.now();
            if (left > MAX_TIMER_MS && rest > 0) return wait(rest);
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
          Math.min(left, MAX_TIMER_MS),
        );
      };
      wait(ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
};

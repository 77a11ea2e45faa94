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

/**
 * `clock.now()` made steady: a reading below the last one counts as no time passing, and time
 * flows on from there. State stamped with earlier readings (a bucket's refill time, a GCRA
 * arrival time, a window's start) then never sees time run backwards: a clock that steps back
 * (a user's `Date.now()`-based clock, NTP) cannot remove units or stretch a wait.
 */
export function steadyNow(clock: Clock): () => number {
  // `performance.now()` is monotonic by specification: the guard would only cost a call per reading.
  if (clock === systemClock) return clock.now;
  let last = Number.NEGATIVE_INFINITY;
  let offset = 0;
  return () => {
    const raw = clock.now() + offset;
    if (raw < last) {
      offset += last - raw;
      return last;
    }
    last = raw;
    return raw;
  };
}

/** Longest delay `setTimeout` keeps (2³¹−1 ms, ~24.8 days); beyond it Node fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `performance`, read once: the global is a lazy accessor, and going through it on every reading
 * costs about a sixth of a memory-store decision. `sleep` keeps the global, so fake timers see it.
 */
const performanceAtLoad = performance;

/** The real clock: `performance.now()`, `Date.now()` and `setTimeout` (chained past its limit). */
export const systemClock: Clock = {
  now: () => performanceAtLoad.now(),
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

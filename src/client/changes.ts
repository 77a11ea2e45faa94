/**
 * A key's change signal: anything that may let a waiting call go sooner (an answer, a cancelled
 * ticket) calls {@link Changes.notify}; the call at the head of the line sleeps until its computed
 * time or the next change, whichever comes first, and an abort ends the sleep at once.
 */
import { abortable } from '../core/abortable.js';
import type { Clock } from '../core/clock.js';
import { AbortError } from '../errors.js';

/** The reason a sleep cut short by a change is cancelled with: made once, not per wait. */
const WOKEN = Object.freeze(new Error('woken'));

/** Wakes sleepers when something changed. */
export class Changes {
  readonly #clock: Clock;
  #wake: () => void = () => {};
  /** Made when a sleeper first waits for it, not on every change nobody waits for. */
  #changed: Promise<void> | null = null;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** The next change. */
  #next(): Promise<void> {
    this.#changed ??= new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
    return this.#changed;
  }

  /** Wakes every sleeper. */
  notify(): void {
    if (this.#changed === null) return;
    this.#changed = null;
    this.#wake();
  }

  /** Sleeps `ms` (`Infinity`: until a change), or until the next change; rejects with {@link AbortError} on abort. */
  async sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    // Aborted already (a listener of the wait's own event aborted it): no sleep is started.
    if (signal?.aborted) throw new AbortError(signal.reason);
    const changed = this.#next();
    if (!Number.isFinite(ms)) {
      await abortable(changed, signal);
      return;
    }
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.race([this.#clock.sleep(ms, stop.signal), changed]);
    } catch (error) {
      if (!(error instanceof AbortError) || signal?.aborted) throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      stop.abort(WOKEN);
    }
    if (signal?.aborted) throw new AbortError(signal.reason);
  }
}

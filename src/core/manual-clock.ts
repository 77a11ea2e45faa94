import { AbortError } from '../errors.js';
import type { Clock } from './clock.js';
import { invalid } from './validate.js';

interface Sleeper {
  at: number;
  seq: number;
  resolve: () => void;
}

/** Lets promise callbacks that a woken sleeper triggers run before time moves on. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A clock for tests: time moves only when {@link ManualClock.advance} is called, and due sleepers
 * wake in order of their deadline (then of their creation).
 */
export class ManualClock implements Clock {
  #now: number;
  #wallOffset: number;
  #seq = 0;
  #sleepers: Sleeper[] = [];

  /** @param start monotonic start time in ms. @param wallStart epoch ms at `start`. */
  constructor(start = 0, wallStart = Date.UTC(2026, 0, 1)) {
    this.#now = start;
    this.#wallOffset = wallStart - start;
  }

  now(): number {
    return this.#now;
  }

  wallNow(): number {
    return this.#now + this.#wallOffset;
  }

  /** Moves the wall clock by `ms` (either way) without moving monotonic time. */
  shiftWall(ms: number): void {
    this.#wallOffset += ms;
  }

  /** How many sleepers are waiting. */
  get pending(): number {
    return this.#sleepers.length;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new AbortError(signal.reason));
      // Not a positive number of ms (0, negative, NaN): due at once, as with `systemClock`.
      const sleeper: Sleeper = { at: this.#now + Math.max(0, ms || 0), seq: this.#seq++, resolve };
      const onAbort = () => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(new AbortError(signal?.reason));
      };
      sleeper.resolve = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#sleepers.push(sleeper);
      this.#sleepers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    });
  }

  /**
   * Moves time forward by `ms`, stopping at each sleeper's deadline to wake it and to let the
   * work it triggers run (which may schedule further sleeps inside the same span). Rejects with
   * `HEADWAY_INVALID_OPTION` when `ms` is not a finite number of ms of at least 0: time never steps back.
   */
  async advance(ms: number): Promise<void> {
    if (!(Number.isFinite(ms) && ms >= 0)) invalid('ms', 'a finite number of ms of at least 0', ms);
    const target = this.#now + ms;
    await settle();
    for (;;) {
      const next = this.#sleepers[0];
      if (!next || next.at > target) break;
      this.#sleepers.shift();
      this.#now = Math.max(this.#now, next.at);
      next.resolve();
      await settle();
    }
    this.#now = target;
    await settle();
  }
}

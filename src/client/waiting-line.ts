/**
 * A key's waiting line: the calls that cannot go at once, in priority order (a p-queue of
 * concurrency 1). The call at its head waits for the pacer, woken early by every change (an
 * answer, a cancelled ticket: {@link Changes}), while the others wait their turn.
 */
import PQueueExport from 'p-queue';
import type { Clock } from '../core/clock.js';
import { Changes } from './changes.js';
import type { Delay } from './pacer.js';

/**
 * p-queue's class. p-queue is an ES module only: the CommonJS build `require`s it, which hands back
 * its namespace, whose `default` is the class.
 */
const PQueue: typeof PQueueExport =
  (PQueueExport as unknown as { default?: typeof PQueueExport }).default ?? PQueueExport;

/** A call in the line: it decides whether a wait is acceptable, and may abort it. */
export interface Waiter {
  /**
   * Throws to give up (deadline, `maxRetryAfterMs`); reports the wait (events) unless it is a
   * `repeat` of a wait already reported (the call woke early and waits on for the same end).
   */
  checkWait(delay: Delay, repeat?: boolean): void;
  /** Aborts the wait. Read only once the call has to wait. */
  readonly signal: AbortSignal | undefined;
}

/** The waiting line of one key. */
export class WaitingLine {
  readonly #queue = new PQueue({ concurrency: 1 });
  readonly #changes: Changes;
  /** Calls waiting: in the line, at its head, or (with a store) for the units they booked. */
  #waiting = 0;

  constructor(clock: Clock) {
    this.#changes = new Changes(clock);
  }

  /** Nobody is in the line: a call that may go now goes without joining it. */
  get empty(): boolean {
    return this.#queue.size === 0 && this.#queue.pending === 0;
  }

  /** Calls waiting for their turn. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Counts a call as waiting until {@link leave}. */
  enter(): void {
    this.#waiting++;
  }

  leave(): void {
    this.#waiting--;
  }

  /** Runs `atHead` once the call is at the head of the line; `signal` takes it out of the line. */
  join<T>(atHead: () => Promise<T>, priority: number, signal: AbortSignal | undefined): Promise<T> {
    return this.#queue.add(atHead, { priority, signal });
  }

  /** The head sleeps `ms` (`Infinity`: until a change), or until the next change. */
  sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return this.#changes.sleep(ms, signal);
  }

  /** Something changed that may let the head go sooner. */
  notify(): void {
    this.#changes.notify();
  }
}

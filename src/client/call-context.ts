/**
 * The lifetime of one call: its caller's `AbortSignal`, its deadline and its timers, combined
 * into one signal that every wait and every attempt honours. `dispose()` clears every timer.
 */
import type { Clock } from '../core/clock.js';
import type { CallFacts } from '../errors.js';
import { AbortError, DeadlineExceededError } from '../errors.js';

/** The reason internal timers are cancelled with: made once, not per call. */
const DISPOSED = Object.freeze(new Error('call settled'));

const never = (): boolean => false;
const nothing = (): void => {};
/** The attempt of a call with no signal, no deadline and no timeout: nothing to make per attempt. */
const UNBOUNDED = Object.freeze({ signal: undefined, timedOut: never, done: nothing });

/**
 * A caller's signal made only when it is needed: a face whose attempts already stop when its
 * caller aborts (the undici interceptor) hands this over, so that a call that never waits, with
 * no timeout or deadline, makes no `AbortSignal` at all.
 */
export interface LazySignal {
  /** The caller's signal, made on the first call (aborted already when the caller aborted before). */
  signal(): AbortSignal;
}

/** The caller's signal, as a face hands it over. */
export type CallerSignal = AbortSignal | LazySignal;

const isLazy = (s: CallerSignal): s is LazySignal => typeof (s as LazySignal).signal === 'function';

/** One attempt's signal: `done()` once its answer's head is in; `timedOut()` says whether its timeout fired. */
export interface Attempt {
  readonly signal: AbortSignal | undefined;
  timedOut(): boolean;
  done(): void;
}

/** The signal, deadline and facts of one call. */
export class CallContext {
  readonly facts: CallFacts;
  readonly deadlineMs: number | undefined;
  readonly #deadlineAt: number;
  readonly #clock: Clock;
  /** The caller's signal and the deadline combined: made only with a deadline. */
  #controller: AbortController | undefined;
  /** Cancels the deadline timer; made only when there is a deadline. */
  #timers: AbortController | undefined;
  #caller: CallerSignal | undefined;
  /** Made only when there is a caller's signal to listen to. */
  #onCallerAbort: (() => void) | undefined;

  constructor(
    key: string,
    clock: Clock,
    callerSignal: CallerSignal | null | undefined,
    deadlineMs: number | undefined,
  ) {
    this.#clock = clock;
    this.facts = { key, attempts: 0, statuses: [], waitedMs: 0 };
    this.deadlineMs = deadlineMs;
    this.#deadlineAt = deadlineMs === undefined ? Number.POSITIVE_INFINITY : clock.now() + deadlineMs;
    this.#caller = callerSignal ?? undefined;
    if (deadlineMs !== undefined) {
      const controller = this.#control();
      this.#timers = new AbortController();
      clock.sleep(deadlineMs, this.#timers.signal).then(
        () => controller.abort(new DeadlineExceededError(this.facts, deadlineMs)),
        () => {},
      );
    }
  }

  /**
   * Aborts when the caller aborts or the deadline passes; `undefined` when neither can happen.
   * Without a deadline it is the caller's own signal (made now if it is lazy): no relay per call.
   */
  get signal(): AbortSignal | undefined {
    return this.#controller === undefined ? this.#callerSignal() : this.#controller.signal;
  }

  /** The caller's signal (not a lazy one, which the face stops itself) was aborted before the call began. */
  get abortedBefore(): boolean {
    const caller = this.#caller;
    return caller !== undefined && !isLazy(caller) && caller.aborted;
  }

  /** The caller's own signal, made now if it is lazy. */
  #callerSignal(): AbortSignal | undefined {
    const caller = this.#caller;
    if (caller === undefined || !isLazy(caller)) return caller;
    const made = caller.signal();
    this.#caller = made;
    return made;
  }

  #control(): AbortController {
    const controller = new AbortController();
    this.#controller = controller;
    const callerSignal = this.#callerSignal();
    if (callerSignal) {
      const onCallerAbort = () => controller.abort(new AbortError(callerSignal.reason));
      if (callerSignal.aborted) onCallerAbort();
      else {
        this.#onCallerAbort = onCallerAbort;
        callerSignal.addEventListener('abort', onCallerAbort, { once: true });
      }
    }
    return controller;
  }

  /** Records the status of one attempt (`null`: no response). */
  recordStatus(status: number | null): void {
    const { facts } = this;
    // The first makes an array of one: a push would first grow the empty array to 16 places.
    if (facts.statuses.length === 0) facts.statuses = [status];
    else facts.statuses.push(status);
  }

  /** ms left before the deadline (Infinity without one). */
  remainingMs(): number {
    return this.#deadlineAt - this.#clock.now();
  }

  /** Throws at once when a wait of `waitMs` would overrun the deadline. */
  checkWait(waitMs: number): void {
    // An unbounded wait (for a response or an outage probe) is left to the deadline timer.
    if (this.deadlineMs !== undefined && Number.isFinite(waitMs) && waitMs > this.remainingMs()) {
      throw new DeadlineExceededError(this.facts, this.deadlineMs, waitMs);
    }
  }

  /** The error to reject with once `signal` has aborted. */
  abortReason(): unknown {
    const reason = this.signal?.reason;
    return reason instanceof DeadlineExceededError || reason instanceof AbortError
      ? reason
      : new AbortError(reason);
  }

  /**
   * A signal for one attempt that also aborts after `timeoutMs` or at the deadline, until `done()`
   * (called once the answer's headers are in). The caller's own signal stays linked afterwards, so
   * aborting it still cancels the body of the Response the call returned, as with plain `fetch`
   * (`AbortSignal.any` holds that link weakly: nothing is left registered on the caller's signal).
   */
  attemptSignal(timeoutMs: number | undefined): Attempt {
    if (timeoutMs === undefined && this.deadlineMs === undefined) {
      // A lazy caller's signal stays unmade: that face stops its own attempts when its caller aborts.
      const caller = this.#caller;
      return caller && !isLazy(caller) ? { signal: caller, timedOut: never, done: nothing } : UNBOUNDED;
    }
    const signal = this.signal;
    const callerSignal = this.#callerSignal();
    const controller = new AbortController();
    const timer = new AbortController();
    let fired = false;
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs !== undefined) {
      this.#clock.sleep(timeoutMs, timer.signal).then(
        () => {
          fired = true;
          controller.abort(new Error(`attempt timed out after ${timeoutMs} ms`));
        },
        () => {},
      );
    }
    return {
      signal: callerSignal ? AbortSignal.any([callerSignal, controller.signal]) : controller.signal,
      timedOut: () => fired,
      done: () => {
        timer.abort(DISPOSED);
        signal?.removeEventListener('abort', onAbort);
      },
    };
  }

  /** Clears every timer and listener of the call. */
  dispose(): void {
    this.#timers?.abort(DISPOSED);
    const caller = this.#caller;
    if (this.#onCallerAbort && caller && !isLazy(caller))
      caller.removeEventListener('abort', this.#onCallerAbort);
  }
}

/**
 * Typed events of the client, each a subscription that returns its unsubscribe function.
 */
import { ignoreRejection } from '../core/ignore-rejection.js';
import type { RateLimitSignal } from '../signals/signal.js';
import type { RetryReason } from './retry-policy.js';

/** A call had to wait before it could be sent. */
export interface ThrottleEvent {
  key: string;
  waitMs: number;
  /** `pacing` (the key's pace, a window spent included), `gate` (a server's hint), `outage` (an outage backoff or probe). */
  reason: 'pacing' | 'gate' | 'outage';
}

/** A call is about to be retried. */
export interface RetryEvent {
  key: string;
  /** The attempt that failed (1-based). */
  attempt: number;
  /** Status of the failed attempt (`null`: no response, a network error or a timeout). */
  status: number | null;
  /** ms until the retry may leave: its backoff or the server's hint, or the key's gate when that holds it longer. */
  delayMs: number;
  reason: RetryReason;
}

/** The server said this key is rate limited. */
export interface RateLimitedEvent {
  key: string;
  status: number;
  retryAfterMs: number | null;
  signal: RateLimitSignal;
}

/** A call stopped retrying and settles with what it has. */
export interface GiveUpEvent {
  key: string;
  attempts: number;
  /** Status of the last attempt (`null`: no response). */
  status: number | null;
  reason: RetryReason | 'retry-after-too-long';
}

/** A listener; an `async` one may return a promise, whose rejection is ignored as a throw is. */
type Listener<T> = (event: T) => unknown;

/** A list of listeners; `emit` never lets a throwing (or rejecting) listener break the call. */
export class EventChannel<T> {
  #listeners: Listener<T>[] = [];

  /** Subscribes; returns the unsubscribe function. */
  subscribe = (listener: Listener<T>): (() => void) => {
    // An entry of its own per subscription: unsubscribing one leaves another of the same listener.
    const entry: Listener<T> = (event) => listener(event);
    this.#listeners = [...this.#listeners, entry];
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== entry);
    };
  };

  /** True when someone listens (lets callers skip building events). */
  get active(): boolean {
    return this.#listeners.length > 0;
  }

  emit(event: T): void {
    for (const listener of this.#listeners) {
      try {
        // A listener's failure must not change the outcome of a call, nor (an `async` listener's
        // rejection) end the process as an unhandled rejection.
        ignoreRejection(listener(event));
      } catch {
        // as above
      }
    }
  }
}

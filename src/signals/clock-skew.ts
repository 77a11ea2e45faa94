/**
 * Clock skew (rule 2). An absolute time the server wrote (an epoch reset, an RFC 3339 or
 * HTTP-date) is compared with the server's own clock, its `Date` header, when that is valid, and
 * only otherwise with the client's clock. The difference is a delay, which the client then counts
 * from the moment it received the response: a server clock that runs ahead or behind no longer
 * shortens or stretches the wait. `Date` names a whole second: when the client's clock lies within
 * that second, there is no skew to correct, and the client's finer clock is used (else a reset in
 * epoch seconds would read up to a second late).
 */

import { trimOws } from './fields.js';
import { parseHttpDate } from './http-date.js';

/** The two clocks a response is read against. */
export interface TimeBase {
  /** Epoch ms on the client's clock when the response arrived. */
  readonly receivedAt: number;
  /** Epoch ms on the server's clock when it answered: its `Date` header, else `receivedAt`. */
  readonly serverNow: number;
}

/**
 * The longest delay a hint is read as: 2³¹ seconds, the value RFC 9111 §1.2.2 gives a
 * delta-seconds too large to represent. A longer hint is capped to it, never dropped: a server's
 * "wait very long" stays a wait (and fails fast against `maxRetryAfterMs`).
 */
export const LONGEST_DELAY_MS = 2 ** 31 * 1000;

/** ms from the server's "now" until `epochMs`, never negative, at most {@link LONGEST_DELAY_MS}. */
export function delayUntil(epochMs: number, time: TimeBase): number {
  return Math.min(LONGEST_DELAY_MS, Math.max(0, epochMs - time.serverNow));
}

/**
 * The {@link TimeBase} of one response. Its `Date` field is parsed only when an absolute time
 * needs it, so responses that speak in deltas (IETF, OpenAI, draft-6) never pay for it.
 */
export class ResponseTime implements TimeBase {
  #serverNow: number | undefined;

  constructor(
    readonly receivedAt: number,
    private readonly date: string | null,
  ) {}

  get serverNow(): number {
    if (this.#serverNow === undefined) {
      const date = this.date === null ? null : parseHttpDate(trimOws(this.date), this.receivedAt);
      const sameSecond = date !== null && this.receivedAt >= date && this.receivedAt < date + 1000;
      this.#serverNow = date === null || sameSecond ? this.receivedAt : date;
    }
    return this.#serverNow;
  }
}

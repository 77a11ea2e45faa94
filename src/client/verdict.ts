/**
 * What one attempt means: the only place that interprets a status. The key's pacer and the retry
 * policy both act on the {@link Verdict}, never on a status.
 *
 * | outcome | verdict | retry |
 * | --- | --- | --- |
 * | 429 (with or without a hint) | `limited` | any method: it was not processed |
 * | 403 with a retry hint (GitHub's secondary limits, `remaining: 0`) | `limited` | any method |
 * | 503 with a retry hint | `limited` | idempotent only: it may have been processed |
 * | 500, 502, 503, 504 without a hint | `outage` | idempotent only |
 * | a network error or a timed-out attempt | `outage` (`status: null`) | idempotent only |
 * | 408 | `answered` | idempotent only: the server is up, the attempt was lost |
 * | anything else (2xx, 3xx, other 4xx and 5xx) | `answered` | never |
 * | the caller aborted | `aborted` | never |
 */
import type { RateLimitSignal } from '../signals/signal.js';

/** How one attempt ended, before interpretation. */
export type AttemptOutcome =
  | { kind: 'response'; status: number; signal: RateLimitSignal }
  | { kind: 'network' }
  | { kind: 'aborted' };

/** Which calls a retry may repeat. */
export type RetryScope = 'never' | 'idempotent' | 'any';

/** What an attempt means for the key and for the call. */
export type Verdict =
  /** The server answered and is up; its answer may still be an error (`retry` says if retrying can help). */
  | { kind: 'answered'; status: number; retry: 'never' | 'idempotent' }
  /** The server refused for the rate: wait `retryAfterMs` (when it said) before the key sends again. */
  | { kind: 'limited'; status: number; retryAfterMs: number | null; retry: 'any' | 'idempotent' }
  /** The server looks down: a 5xx without a hint, or no response at all (`status: null`). */
  | { kind: 'outage'; status: number | null; retry: 'idempotent' }
  /** The caller gave up. */
  | { kind: 'aborted' };

/** 5xx statuses that say the server is down (501 and 505 are answers: retrying cannot fix them). */
const OUTAGE_STATUSES = new Set([500, 502, 503, 504]);
/** Statuses that are a rate limit when they carry a retry hint. */
const LIMIT_WITH_HINT = new Set([403, 503]);

/** The verdict of one attempt. Pure. */
export function verdictOf(outcome: AttemptOutcome): Verdict {
  if (outcome.kind === 'aborted') return outcome;
  if (outcome.kind === 'network') return { kind: 'outage', status: null, retry: 'idempotent' };
  const { status, signal } = outcome;
  const hint = signal.retryAfterMs;
  if (status === 429) return { kind: 'limited', status, retryAfterMs: hint, retry: 'any' };
  if (hint !== null && LIMIT_WITH_HINT.has(status)) {
    return { kind: 'limited', status, retryAfterMs: hint, retry: status === 503 ? 'idempotent' : 'any' };
  }
  if (OUTAGE_STATUSES.has(status)) return { kind: 'outage', status, retry: 'idempotent' };
  return answered(status);
}

/** The `answered` verdicts made so far, by status: a verdict is never changed, so one per status serves every answer. */
const ANSWERED = new Map<number, Verdict>();

function answered(status: number): Verdict {
  let verdict = ANSWERED.get(status);
  if (verdict === undefined) {
    verdict = Object.freeze({ kind: 'answered', status, retry: status === 408 ? 'idempotent' : 'never' });
    // Statuses are three digits; anything else is not kept (the map stays small).
    if (Number.isInteger(status) && status >= 100 && status <= 999) ANSWERED.set(status, verdict);
  }
  return verdict;
}

/** The status a verdict reports in events and facts (`null`: no response). */
export function statusOf(verdict: Verdict): number | null {
  return verdict.kind === 'aborted' ? null : verdict.status;
}

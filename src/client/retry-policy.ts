/**
 * Whether a call may retry, from its attempt's {@link Verdict} (which says which calls a retry
 * may repeat) and what the call is: an idempotent method, a body that can be sent again.
 */
import type { Verdict } from './verdict.js';

/** Why a retry was or was not attempted. */
export type RetryReason =
  | 'rate-limited' // 429, or a 403 with a retry hint
  | 'server-error' // 408, 500, 502, 503, 504
  | 'network-error'
  | 'not-retryable' // success, or a status that retrying cannot fix
  | 'not-idempotent' // would be safe only for idempotent calls
  | 'body-not-replayable' // a stream body was sent once
  | 'retries-exhausted'
  | 'budget-exhausted';

/** Why the attempt judged `verdict` may (or may not) be retried for a call. */
export function retryReason(verdict: Verdict, idempotent: boolean, replayable: boolean): RetryReason {
  if (verdict.kind === 'aborted' || verdict.retry === 'never') return 'not-retryable';
  if (verdict.retry === 'idempotent' && !idempotent) return 'not-idempotent';
  if (!replayable) return 'body-not-replayable';
  if (verdict.kind === 'limited' && verdict.retry === 'any') return 'rate-limited';
  return verdict.kind === 'outage' && verdict.status === null ? 'network-error' : 'server-error';
}

/** True for the reasons that allow a retry. */
export function isRetryable(reason: RetryReason): boolean {
  return reason === 'rate-limited' || reason === 'server-error' || reason === 'network-error';
}

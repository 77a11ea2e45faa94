/**
 * Which outcomes may be retried. A 429 was not processed, so any method may retry it; 408, 500,
 * 502, 503, 504 and network errors may have been processed, so only idempotent calls retry them.
 */

/** Why a retry was or was not attempted. */
export type RetryReason =
  | 'rate-limited' // 429
  | 'server-error' // 408, 500, 502, 503, 504
  | 'network-error'
  | 'not-retryable' // success, or a status that retrying cannot fix
  | 'not-idempotent' // would be safe only for idempotent calls
  | 'body-not-replayable' // a stream body was sent once
  | 'retries-exhausted'
  | 'budget-exhausted';

const SERVER_ERRORS = new Set([408, 500, 502, 503, 504]);

/** Classifies an outcome (a status, or `0` for a network error) for a call. */
export function classify(status: number, idempotent: boolean, replayable: boolean): RetryReason {
  let reason: RetryReason;
  if (status === 429) reason = 'rate-limited';
  else if (status === 0) reason = 'network-error';
  else if (SERVER_ERRORS.has(status)) reason = 'server-error';
  else return 'not-retryable';
  if (reason !== 'rate-limited' && !idempotent) return 'not-idempotent';
  if (!replayable) return 'body-not-replayable';
  return reason;
}

/** True for the reasons that allow a retry. */
export function isRetryable(reason: RetryReason): boolean {
  return reason === 'rate-limited' || reason === 'server-error' || reason === 'network-error';
}

/** True for outcomes that suggest the server is down (they open the key's outage gate). */
export function isOutageSignal(status: number): boolean {
  return status === 0 || status === 502 || status === 503 || status === 504 || status === 500;
}

import type { Decision } from '../stores/store.js';
import { dialects } from './headers/index.js';
import { seconds } from './headers/quota.js';
import type { HeaderList } from './headers/types.js';
import type { RateLimitOptions } from './options.js';
import type { ResolvedPolicy } from './policy.js';

/** The headers and body of one answer. */
export interface Answer {
  headers: HeaderList;
  body: string | undefined;
}

/**
 * How a limiter answers: the dialect's headers and `Date` on every response; on refusal
 * `Retry-After` (whole seconds, rounded up, at least 1), optionally `retry-after-ms`, and a small
 * JSON body. The `Date` text is formatted once per wall-clock second.
 */
export function answerOf(
  o: Pick<RateLimitOptions, 'clock' | 'headers' | 'retryAfterMsHeader'>,
): (policy: ResolvedPolicy, decision: Decision | undefined, status: 200 | 429 | 503) => Answer {
  const dialect = dialects[o.headers];
  let dateSecond = Number.NaN;
  let dateText = '';
  const dateAt = (wallNowMs: number) => {
    const second = Math.floor(wallNowMs / 1000);
    if (second !== dateSecond) {
      dateSecond = second;
      dateText = new Date(wallNowMs).toUTCString();
    }
    return dateText;
  };
  return (policy, decision, status) => {
    const wallNowMs = o.clock.wallNow();
    const headers = dialect({ policy, decision, wallNowMs });
    headers.push(['Date', dateAt(wallNowMs)]);
    if (status === 200) return { headers, body: undefined };
    const waitMs = status === 429 && decision ? decision.retryAfterMs : 1000;
    const retryAfterSeconds = Math.max(1, seconds(waitMs));
    headers.push(['Retry-After', String(retryAfterSeconds)]);
    if (o.retryAfterMsHeader) headers.push(['retry-after-ms', String(Math.ceil(waitMs))]);
    const error = status === 429 ? 'rate_limited' : 'rate_limiter_unavailable';
    return { headers, body: JSON.stringify({ error, retryAfterSeconds, policy: policy.name }) };
  };
}

import type { Clock } from '../core/clock.js';
import type { Decision } from '../stores/store.js';
import { dateTextOf } from './date-text.js';
import { dialects } from './headers/index.js';
import { seconds } from './headers/quota.js';
import type { HeaderInput, HeaderList } from './headers/types.js';
import type { RateLimitOptions } from './options.js';
import type { ResolvedPolicy } from './policy.js';

/** The headers and body of one answer. */
export interface Answer {
  headers: HeaderList;
  body: string | undefined;
}

/** What a dialect writes from; the wall clock is read only if the dialect asks (epoch resets). */
class Facts implements HeaderInput {
  #wallNowMs: number | undefined;

  constructor(
    readonly policy: ResolvedPolicy,
    readonly decision: Decision | undefined,
    readonly clock: Clock,
  ) {}

  get wallNowMs(): number {
    this.#wallNowMs ??= this.clock.wallNow();
    return this.#wallNowMs;
  }

  /** The wall-clock reading, if the dialect took one. */
  get wallNowMsRead(): number | undefined {
    return this.#wallNowMs;
  }
}

/**
 * How a limiter answers: the dialect's headers and `Date` on every response; on refusal
 * `Retry-After` (whole seconds, rounded up, at least 1), optionally `retry-after-ms`, and a small
 * JSON body. `Date` comes from the reading of an epoch reset when the dialect took one, else from
 * the clock (see {@link dateTextOf}).
 */
export function answerOf(
  o: Pick<RateLimitOptions, 'clock' | 'headers' | 'retryAfterMsHeader'>,
): (policy: ResolvedPolicy, decision: Decision | undefined, status: 200 | 429 | 503) => Answer {
  const dialect = dialects[o.headers];
  const date = dateTextOf(o.clock);
  return (policy, decision, status) => {
    const facts = new Facts(policy, decision, o.clock);
    const headers = dialect(facts);
    const read = facts.wallNowMsRead;
    headers.push(['Date', read === undefined ? date.now() : date.at(read)]);
    if (status === 200) return { headers, body: undefined };
    const waitMs = status === 429 && decision ? decision.retryAfterMs : 1000;
    const retryAfterSeconds = Math.max(1, seconds(waitMs));
    headers.push(['Retry-After', String(retryAfterSeconds)]);
    if (o.retryAfterMsHeader) headers.push(['retry-after-ms', String(Math.ceil(waitMs))]);
    const error = status === 429 ? 'rate_limited' : 'rate_limiter_unavailable';
    return { headers, body: JSON.stringify({ error, retryAfterSeconds, policy: policy.name }) };
  };
}

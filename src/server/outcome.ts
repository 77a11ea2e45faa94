import type { HeadwayError } from '../errors.js';
import type { Decision } from '../stores/store.js';
import type { HeaderList } from './headers/types.js';
import { fieldOver } from './joined-fields.js';
import type { ResolvedPolicy } from './policy.js';

/** What `limiter.check` decided for one request, with everything needed to answer it. */
export interface LimitOutcome {
  /** `true`: let the request through (and still set `headers` on its response). */
  allowed: boolean;
  /** 200 when allowed; 429 when refused; 503 when the store failed and the policy fails closed. */
  status: 200 | 429 | 503;
  key: string;
  policy: ResolvedPolicy;
  /** The store's decision; `undefined` when the store failed or timed out. */
  decision: Decision | undefined;
  /** The algorithm refused but `mode: 'observe'` let it through. */
  wouldRefuse: boolean;
  /** Why the store gave no decision, if it did not. */
  storeError: HeadwayError | undefined;
  /** Headers for the response, allowed or not: rate-limit dialect, `Date`, and `Retry-After` on refusal. */
  headers: HeaderList;
  /** JSON body of the refusal (`undefined` when allowed). */
  body: string | undefined;
}

/** The refusal as a Web `Response` (429 or 503 with headers and JSON body). */
export function refusalResponse(outcome: LimitOutcome): Response {
  const headers = new Headers(outcome.headers);
  headers.set('content-type', 'application/json');
  return new Response(outcome.body ?? '{}', { status: outcome.status, headers });
}

/** `response` with the outcome's headers set (copied into a new `Response` if its headers are immutable). */
export function withRateLimitHeaders(response: Response, outcome: LimitOutcome): Response {
  return withHeaders(response, outcome.headers);
}

/** `response` with `list` put on it by {@link setAll} (copied into a new `Response` if its headers are immutable). */
export function withHeaders(response: Response, list: HeaderList): Response {
  try {
    setAll(response.headers, list);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    setAll(copy.headers, list);
    return copy;
  }
}

/**
 * Puts each of `list` on `headers`, the same rule as the other adapters: a field the response
 * lacks is set; a joined one (`Vary`, the exposed names, the IETF lists: {@link fieldOver}) joins
 * what is there; any other the handler set itself wins (a gateway passing on its upstream's).
 */
function setAll(headers: Headers, list: HeaderList): void {
  for (const [name, value] of list) {
    const set = fieldOver(name, headers.get(name), value);
    if (set !== null) headers.set(name, set);
  }
}

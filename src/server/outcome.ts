import type { HeadwayError } from '../errors.js';
import type { Decision } from '../stores/store.js';
import type { HeaderList } from './headers/types.js';
import { isJoined, isNameList, joinField } from './joined-fields.js';
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

/**
 * Marks the `Headers` a limiter set its fields on: a limiter stacked outside it joins its IETF
 * lists to them (see {@link setAll}). A mark, not a look at every response: `Headers#get` per field
 * costs a fetch handler more than the rest of the join.
 */
const LIMITED = Symbol('headway.limited');
type Marked = Headers & { [LIMITED]?: true };

/** The refusal as a Web `Response` (429 or 503 with headers and JSON body). */
export function refusalResponse(outcome: LimitOutcome): Response {
  const headers: Marked = new Headers(outcome.headers);
  headers[LIMITED] = true;
  headers.set('content-type', 'application/json');
  return new Response(outcome.body ?? '{}', { status: outcome.status, headers });
}

/** `response` with the outcome's headers set (copied into a new `Response` if its headers are immutable). */
export function withRateLimitHeaders(response: Response, outcome: LimitOutcome): Response {
  try {
    setAll(response.headers, outcome.headers);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    setAll(copy.headers, outcome.headers);
    return copy;
  }
}

/**
 * Sets each of `list` on `headers`; `Vary` and the exposed names join what is there, and so do the
 * IETF lists when another limiter set its own on `headers` (see {@link joinField}).
 */
function setAll(headers: Marked, list: HeaderList): void {
  const joins = headers[LIMITED] === true ? isJoined : isNameList;
  for (const [name, value] of list)
    headers.set(name, (joins(name) && joinField(name, headers.get(name), value)) || value);
  headers[LIMITED] = true;
}

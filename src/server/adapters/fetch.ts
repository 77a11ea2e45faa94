import { type CorsOption, corsHeaders, isPreflight, preflightHeaders } from '../cors.js';
import { type LimitOutcome, refusalResponse, withRateLimitHeaders } from '../outcome.js';
import type { RateLimiter } from '../rate-limit.js';
import type { ClientInfo } from '../request.js';

/** Options of the fetch-handler adapters. */
export interface FetchAdapterOptions {
  /** Send CORS headers (and answer preflights with `204`, uncounted). @default false */
  cors?: CorsOption;
}

/** A fetch-style guard: the refusal `Response`, or `undefined` to go on (then `decorate` the answer). */
export interface FetchGuard {
  (request: Request, info?: ClientInfo): Promise<Response | undefined>;
  /** Sets the rate-limit headers of `request`'s decision on `response`. */
  decorate(request: Request, response: Response): Response;
}

/** The outcome with the CORS headers for `request` added to its headers. */
function withCors(cors: CorsOption, request: Request, outcome: LimitOutcome): LimitOutcome {
  const extra = corsHeaders(cors, request, outcome.headers);
  return extra.length === 0 ? outcome : { ...outcome, headers: [...outcome.headers, ...extra] };
}

/** `const refused = await guard(req); if (refused) return refused; return guard.decorate(req, await app(req));` */
export function fetchRateLimit(limiter: RateLimiter, options: FetchAdapterOptions = {}): FetchGuard {
  const outcomes = new WeakMap<Request, LimitOutcome>();
  const guard = async (request: Request, info?: ClientInfo) => {
    if (isPreflight(options.cors, request))
      return new Response(null, { status: 204, headers: preflightHeaders(options.cors, request) });
    const outcome = withCors(options.cors, request, await limiter.check(request, info));
    if (!outcome.allowed) return refusalResponse(outcome);
    outcomes.set(request, outcome);
    return undefined;
  };
  const decorate = (request: Request, response: Response) => {
    const outcome = outcomes.get(request);
    return outcome ? withRateLimitHeaders(response, outcome) : response;
  };
  return Object.assign(guard, { decorate });
}

/** A fetch handler `(request, info?) => Response` with the limiter in front of it. */
export function withRateLimit(
  limiter: RateLimiter,
  handler: (request: Request, info?: ClientInfo) => Response | Promise<Response>,
  options: FetchAdapterOptions = {},
): (request: Request, info?: ClientInfo) => Promise<Response> {
  const guard = fetchRateLimit(limiter, options);
  return async (request, info) =>
    (await guard(request, info)) ?? guard.decorate(request, await handler(request, info));
}

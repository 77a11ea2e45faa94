import { type CorsOption, corsHeaders, isPreflight, preflightHeaders } from '../cors.js';
import { type LimitOutcome, refusalResponse, withRateLimitHeaders } from '../outcome.js';
import { decide, isPromise, type RateLimiter } from '../rate-limit.js';
import type { ClientInfo, LimitRequest } from '../request.js';
import { nodeServerEnv, nodeServerIp, nodeServerRequest, setOnOutgoing } from './node-server-env.js';

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

/**
 * The client facts of a fetch handler's second argument: a {@link ClientInfo} as is, or, under
 * `@hono/node-server` (which passes `{ incoming, outgoing }`), the socket address of `incoming`.
 */
function clientInfo(info: ClientInfo | undefined): ClientInfo {
  if (!info) return {};
  if (info.ip !== undefined) return info;
  const ip = nodeServerIp(info);
  return ip === undefined ? info : { ip };
}

/** The outcome with the CORS headers for `request` added to its headers (as is without CORS). */
function withCors(cors: CorsOption, request: LimitRequest, outcome: LimitOutcome): LimitOutcome {
  if (!cors) return outcome;
  const extra = corsHeaders(cors, request, outcome.headers);
  return extra.length === 0 ? outcome : { ...outcome, headers: [...outcome.headers, ...extra] };
}

/**
 * The limiter's outcome for `request`, CORS headers added; a preflight's `204` when it is one.
 * Under `@hono/node-server` the headers are read from the node request underneath.
 */
function decideWithCors(
  limiter: RateLimiter,
  cors: CorsOption,
  webRequest: Request,
  info: ClientInfo | undefined,
): Response | LimitOutcome | Promise<LimitOutcome> {
  const env = nodeServerEnv(info);
  const request = env ? nodeServerRequest(webRequest, env) : webRequest;
  if (cors && isPreflight(cors, request))
    return new Response(null, { status: 204, headers: preflightHeaders(cors, request) });
  const pending = decide(limiter, request, clientInfo(info));
  if (!cors) return pending;
  return isPromise(pending)
    ? pending.then((o) => withCors(cors, request, o))
    : withCors(cors, request, pending);
}

/** `const refused = await guard(req); if (refused) return refused; return guard.decorate(req, await app(req));` */
export function fetchRateLimit(limiter: RateLimiter, options: FetchAdapterOptions = {}): FetchGuard {
  const outcomes = new WeakMap<Request, LimitOutcome>();
  const guard = async function fetchRateLimitGuard(request: Request, info?: ClientInfo) {
    const decided = decideWithCors(limiter, options.cors, request, info);
    if (decided instanceof Response) return decided;
    const outcome = isPromise(decided) ? await decided : decided;
    if (!outcome.allowed) return refusalResponse(outcome);
    outcomes.set(request, outcome);
    return undefined;
  };
  const decorate = function fetchRateLimitDecorate(request: Request, response: Response) {
    const outcome = outcomes.get(request);
    return outcome ? withRateLimitHeaders(response, outcome) : response;
  };
  return Object.assign(guard, { decorate });
}

/**
 * A fetch handler `(request, info?) => Response` with the limiter in front of it. Under
 * `@hono/node-server` the headers go on the node response underneath (no `Response` copy).
 */
export function withRateLimit(
  limiter: RateLimiter,
  handler: (request: Request, info?: ClientInfo) => Response | Promise<Response>,
  options: FetchAdapterOptions = {},
): (request: Request, info?: ClientInfo) => Promise<Response> {
  return async function withRateLimitHandler(request, info) {
    const decided = decideWithCors(limiter, options.cors, request, info);
    if (decided instanceof Response) return decided;
    const outcome = isPromise(decided) ? await decided : decided;
    if (!outcome.allowed) return refusalResponse(outcome);
    const env = nodeServerEnv(info);
    if (!env) return withRateLimitHeaders(await handler(request, info), outcome);
    setOnOutgoing(env, outcome.headers);
    return handler(request, info);
  };
}

import { type CorsOption, corsHeaders, isPreflight, preflightHeaders, validateCors } from '../cors.js';
import { type LimitOutcome, refusalResponse, withRateLimitHeaders } from '../outcome.js';
import { type Decider, deciderOf, isPromise, type Maybe, type RateLimiter } from '../rate-limit.js';
import type { ClientInfo, LimitRequest } from '../request.js';
import {
  type NodeServerEnv,
  nodeServerEnv,
  nodeServerIp,
  nodeServerRequest,
  setOnOutgoing,
} from './node-server-env.js';

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

/** What Deno (`ServeHandlerInfo`) and Bun (its `Server`) pass a fetch handler as its second argument. */
interface RuntimeInfo {
  /** Deno.serve: the client's address. */
  remoteAddr?: { hostname?: unknown };
  /** Bun.serve: the address of `request`'s client. */
  requestIP?: (request: Request) => { address?: unknown } | null;
}

/**
 * The client facts of a fetch handler's second argument: a {@link ClientInfo} as is; under
 * `@hono/node-server` (which passes `{ incoming, outgoing }`), the socket address of `incoming`;
 * under Deno (`{ remoteAddr }`) and Bun (its `Server`, `requestIP(request)`), the address they give.
 */
function clientInfo(
  info: ClientInfo | undefined,
  env: NodeServerEnv | undefined,
  request: Request,
): ClientInfo {
  if (env) return { ip: nodeServerIp(env) };
  if (!info) return {};
  if (info.ip !== undefined) return info;
  const runtime = info as RuntimeInfo;
  const deno = runtime.remoteAddr?.hostname;
  if (typeof deno === 'string') return { ip: deno };
  if (typeof runtime.requestIP === 'function') {
    const bun = runtime.requestIP(request)?.address;
    if (typeof bun === 'string') return { ip: bun };
  }
  const ip = nodeServerIp(info);
  return ip === undefined ? info : { ip };
}

/** The outcome with the CORS headers for `request` added to its headers (as is without CORS). */
function withCors(cors: CorsOption, request: LimitRequest, outcome: LimitOutcome): LimitOutcome {
  if (!cors) return outcome;
  const extra = corsHeaders(cors, request, outcome.headers);
  return extra.length === 0 ? outcome : { ...outcome, headers: [...outcome.headers, ...extra] };
}

/** What the limiter reads of `request`: under `@hono/node-server`, the headers of the node request underneath. */
function viewOf(request: Request, env: NodeServerEnv | undefined): LimitRequest {
  return env ? nodeServerRequest(request, env) : request;
}

/** The `204` answer to a CORS preflight, or `undefined` when `request` is none (or CORS is off). */
function preflightAnswer(cors: CorsOption, request: LimitRequest): Response | undefined {
  if (!cors || !isPreflight(cors, request)) return undefined;
  return new Response(null, { status: 204, headers: preflightHeaders(cors, request) });
}

/** The limiter's outcome for `request`, CORS headers added. */
function outcomeOf(
  decide: Decider,
  cors: CorsOption,
  request: LimitRequest,
  info: ClientInfo,
): Maybe<LimitOutcome> {
  const pending = decide(request, info);
  if (!cors) return pending;
  return isPromise(pending)
    ? pending.then((o) => withCors(cors, request, o))
    : withCors(cors, request, pending);
}

/** `const refused = await guard(req); if (refused) return refused; return guard.decorate(req, await app(req));` */
export function fetchRateLimit(limiter: RateLimiter, options: FetchAdapterOptions = {}): FetchGuard {
  const decide = deciderOf(limiter);
  const cors = validateCors(options.cors);
  const outcomes = new WeakMap<Request, LimitOutcome>();
  const guard = async function fetchRateLimitGuard(request: Request, info?: ClientInfo) {
    const env = nodeServerEnv(info);
    const view = viewOf(request, env);
    const preflight = preflightAnswer(cors, view);
    if (preflight) return preflight;
    const outcome = await outcomeOf(decide, cors, view, clientInfo(info, env, request));
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
 * A fetch handler `(request, info?) => Response` with the limiter in front of it. It answers as
 * the handler does — a `Response` when the handler returns one and the limiter decided at once
 * (an in-process store), else a promise — so a server's fast path for a synchronous `Response`
 * stays open; errors come back as a rejected promise. Under `@hono/node-server` the headers go on
 * the node response underneath (no `Response` copy).
 */
export function withRateLimit(
  limiter: RateLimiter,
  handler: (request: Request, info?: ClientInfo) => Response | Promise<Response>,
  options: FetchAdapterOptions = {},
): (request: Request, info?: ClientInfo) => Response | Promise<Response> {
  const decide = deciderOf(limiter);
  const cors = validateCors(options.cors);
  const answer = (
    outcome: LimitOutcome,
    request: Request,
    info: ClientInfo | undefined,
    env: NodeServerEnv | undefined,
  ): Response | Promise<Response> => {
    if (!outcome.allowed) return refusalResponse(outcome);
    if (env) {
      setOnOutgoing(env, outcome.headers);
      return handler(request, info);
    }
    const response = handler(request, info);
    return isPromise(response)
      ? response.then((r) => withRateLimitHeaders(r, outcome))
      : withRateLimitHeaders(response, outcome);
  };
  return function withRateLimitHandler(request, info) {
    try {
      const env = nodeServerEnv(info);
      const view = viewOf(request, env);
      const preflight = preflightAnswer(cors, view);
      if (preflight) return preflight;
      const outcome = outcomeOf(decide, cors, view, clientInfo(info, env, request));
      return isPromise(outcome)
        ? outcome.then((o) => answer(o, request, info, env))
        : answer(outcome, request, info, env);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

import { type LimitOutcome, refusalResponse, withRateLimitHeaders } from '../outcome.js';
import { decide, isPromise, type RateLimiter } from '../rate-limit.js';
import type { ClientInfo } from '../request.js';
import { nodeServerEnv, nodeServerIp, setOnOutgoing } from './node-server-env.js';

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

/** `const refused = await guard(req); if (refused) return refused; return guard.decorate(req, await app(req));` */
export function fetchRateLimit(limiter: RateLimiter): FetchGuard {
  const outcomes = new WeakMap<Request, LimitOutcome>();
  const admit = (request: Request, outcome: LimitOutcome) => {
    if (!outcome.allowed) return refusalResponse(outcome);
    outcomes.set(request, outcome);
    return undefined;
  };
  const guard = async function fetchRateLimitGuard(request: Request, info?: ClientInfo) {
    const outcome = decide(limiter, request, clientInfo(info));
    return admit(request, isPromise(outcome) ? await outcome : outcome);
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
): (request: Request, info?: ClientInfo) => Promise<Response> {
  return async function withRateLimitHandler(request, info) {
    const pending = decide(limiter, request, clientInfo(info));
    const outcome = isPromise(pending) ? await pending : pending;
    if (!outcome.allowed) return refusalResponse(outcome);
    const env = nodeServerEnv(info);
    if (!env) return withRateLimitHeaders(await handler(request, info), outcome);
    setOnOutgoing(env, outcome.headers);
    return handler(request, info);
  };
}

import type { Context, MiddlewareHandler } from 'hono';
import { type CorsOption, corsHeaders, isPreflight, preflightHeaders } from '../cors.js';
import { refusalResponse } from '../outcome.js';
import { decide, isPromise, type RateLimiter } from '../rate-limit.js';
import { nodeServerEnv, nodeServerIp, nodeServerRequest, setOnOutgoing } from './node-server-env.js';

/** The socket address under `@hono/node-server` (`c.env.incoming`), else `undefined`. */
function socketIp(c: Context): string | undefined {
  return nodeServerIp(c.env);
}

/**
 * Hono middleware. `ip` reads the client address for your runtime (default: `@hono/node-server`'s
 * socket; elsewhere pass e.g. `getConnInfo(c).remote.address`). Under `@hono/node-server` the
 * headers go on the node response underneath; elsewhere they are set before the handler runs (so
 * `c.json()` and friends build the response with them, at no extra copy) and again on a response
 * the handler built itself. `cors` sends CORS headers and answers preflights with `204`, uncounted.
 */
export function honoRateLimit(
  limiter: RateLimiter,
  options: { ip?: (c: Context) => string | undefined; cors?: CorsOption } = {},
): MiddlewareHandler {
  const ipOf = options.ip ?? socketIp;
  const { cors } = options;
  return async function honoRateLimitMiddleware(c, next) {
    const env = nodeServerEnv(c.env);
    const request = env ? nodeServerRequest(c.req.raw, env) : c.req.raw;
    if (cors && isPreflight(cors, request))
      return new Response(null, { status: 204, headers: preflightHeaders(cors, request) });
    const pending = decide(limiter, request, { ip: ipOf(c) });
    const decided = isPromise(pending) ? await pending : pending;
    const outcome = cors
      ? { ...decided, headers: [...decided.headers, ...corsHeaders(cors, request, decided.headers)] }
      : decided;
    if (!outcome.allowed) return refusalResponse(outcome);
    const { headers } = outcome;
    if (env) {
      setOnOutgoing(env, headers);
      return next();
    }
    for (const [name, value] of headers) c.header(name, value);
    await next();
    const first = headers[0];
    if (first && c.res.headers.get(first[0]) === null)
      for (const [name, value] of headers) c.header(name, value);
  };
}

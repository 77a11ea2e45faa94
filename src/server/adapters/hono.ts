import type { Context, MiddlewareHandler } from 'hono';
import { refusalResponse } from '../outcome.js';
import { decide, isPromise, type RateLimiter } from '../rate-limit.js';
import { nodeServerEnv, nodeServerIp, setOnOutgoing } from './node-server-env.js';

/** The socket address under `@hono/node-server` (`c.env.incoming`), else `undefined`. */
function socketIp(c: Context): string | undefined {
  return nodeServerIp(c.env);
}

/**
 * Hono middleware. `ip` reads the client address for your runtime (default: `@hono/node-server`'s
 * socket; elsewhere pass e.g. `getConnInfo(c).remote.address`). Under `@hono/node-server` the
 * headers go on the node response underneath; elsewhere they are set before the handler runs (so
 * `c.json()` and friends build the response with them, at no extra copy) and again on a response
 * the handler built itself.
 */
export function honoRateLimit(
  limiter: RateLimiter,
  options: { ip?: (c: Context) => string | undefined } = {},
): MiddlewareHandler {
  const ipOf = options.ip ?? socketIp;
  return async function honoRateLimitMiddleware(c, next) {
    const pending = decide(limiter, c.req.raw, { ip: ipOf(c) });
    const outcome = isPromise(pending) ? await pending : pending;
    if (!outcome.allowed) return refusalResponse(outcome);
    const { headers } = outcome;
    const env = nodeServerEnv(c.env);
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

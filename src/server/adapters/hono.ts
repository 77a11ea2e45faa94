import type { Context, MiddlewareHandler } from 'hono';
import { refusalResponse } from '../outcome.js';
import type { RateLimiter } from '../rate-limit.js';

/** The socket address under `@hono/node-server` (`c.env.incoming`), else `undefined`. */
function nodeServerIp(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}

/**
 * Hono middleware. `ip` reads the client address for your runtime (default: `@hono/node-server`'s
 * socket; elsewhere pass e.g. `getConnInfo(c).remote.address`).
 */
export function honoRateLimit(
  limiter: RateLimiter,
  options: { ip?: (c: Context) => string | undefined } = {},
): MiddlewareHandler {
  const ipOf = options.ip ?? nodeServerIp;
  return async (c, next) => {
    const outcome = await limiter.check(c.req.raw, { ip: ipOf(c) });
    if (!outcome.allowed) return refusalResponse(outcome);
    await next();
    for (const [name, value] of outcome.headers) c.header(name, value);
  };
}

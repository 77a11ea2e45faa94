import type { Context, MiddlewareHandler } from 'hono';
import { type CorsOption, corsHeaders, isPreflight, preflightHeaders } from '../cors.js';
import { refusalResponse } from '../outcome.js';
import type { RateLimiter } from '../rate-limit.js';

/** The socket address under `@hono/node-server` (`c.env.incoming`), else `undefined`. */
function nodeServerIp(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}

/**
 * Hono middleware. `ip` reads the client address for your runtime (default: `@hono/node-server`'s
 * socket; elsewhere pass e.g. `getConnInfo(c).remote.address`). `cors` sends CORS headers and
 * answers preflights with `204`, uncounted.
 */
export function honoRateLimit(
  limiter: RateLimiter,
  options: { ip?: (c: Context) => string | undefined; cors?: CorsOption } = {},
): MiddlewareHandler {
  const ipOf = options.ip ?? nodeServerIp;
  return async (c, next) => {
    const request = c.req.raw;
    if (isPreflight(options.cors, request))
      return new Response(null, { status: 204, headers: preflightHeaders(options.cors, request) });
    const checked = await limiter.check(request, { ip: ipOf(c) });
    const outcome = {
      ...checked,
      headers: [...checked.headers, ...corsHeaders(options.cors, request, checked.headers)],
    };
    if (!outcome.allowed) return refusalResponse(outcome);
    await next();
    for (const [name, value] of outcome.headers) c.header(name, value);
  };
}

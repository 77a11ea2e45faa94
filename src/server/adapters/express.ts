import type { RequestHandler } from 'express';
import { type CorsOption, corsHeaders, isPreflight, preflightHeaders } from '../cors.js';
import { nodeRequest } from '../node-request.js';
import type { RateLimiter } from '../rate-limit.js';

/**
 * Express middleware. The client IP is the socket's (`trustProxy` of the limiter decides about
 * `X-Forwarded-For`; Express's own `trust proxy` setting is not consulted). Limiter errors go to `next`.
 * `cors` sends CORS headers and answers preflights with `204`, uncounted.
 */
export function expressRateLimit(limiter: RateLimiter, options: { cors?: CorsOption } = {}): RequestHandler {
  return (req, res, next) => {
    const request = nodeRequest(req);
    if (isPreflight(options.cors, request)) {
      res
        .status(204)
        .set(Object.fromEntries(preflightHeaders(options.cors, request)))
        .end();
      return;
    }
    limiter.check(request, { ip: req.socket.remoteAddress }).then((outcome) => {
      for (const [name, value] of [
        ...outcome.headers,
        ...corsHeaders(options.cors, request, outcome.headers),
      ])
        res.setHeader(name, value);
      if (outcome.allowed) return next();
      res.status(outcome.status).type('application/json').send(outcome.body);
    }, next);
  };
}

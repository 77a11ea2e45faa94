import type { RequestHandler } from 'express';
import { nodeRequest } from '../node-request.js';
import type { RateLimiter } from '../rate-limit.js';

/**
 * Express middleware. The client IP is the socket's (`trustProxy` of the limiter decides about
 * `X-Forwarded-For`; Express's own `trust proxy` setting is not consulted). Limiter errors go to `next`.
 */
export function expressRateLimit(limiter: RateLimiter): RequestHandler {
  return (req, res, next) => {
    limiter.check(nodeRequest(req), { ip: req.socket.remoteAddress }).then((outcome) => {
      for (const [name, value] of outcome.headers) res.setHeader(name, value);
      if (outcome.allowed) return next();
      res.status(outcome.status).type('application/json').send(outcome.body);
    }, next);
  };
}

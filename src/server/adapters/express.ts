import type { RequestHandler } from 'express';
import { nodeRequest } from '../node-request.js';
import type { LimitOutcome } from '../outcome.js';
import { decide, isPromise, type RateLimiter } from '../rate-limit.js';

/**
 * Express middleware. The client IP is the socket's (`trustProxy` of the limiter decides about
 * `X-Forwarded-For`; Express's own `trust proxy` setting is not consulted). Limiter errors go to `next`.
 */
export function expressRateLimit(limiter: RateLimiter): RequestHandler {
  return function expressRateLimitMiddleware(req, res, next) {
    const answer = (outcome: LimitOutcome) => {
      const { headers } = outcome;
      for (let i = 0; i < headers.length; i++) res.setHeader(headers[i]![0], headers[i]![1]);
      if (outcome.allowed) return next();
      res.status(outcome.status).type('application/json').send(outcome.body);
    };
    let outcome: LimitOutcome | Promise<LimitOutcome>;
    try {
      outcome = decide(limiter, nodeRequest(req), { ip: req.socket.remoteAddress });
    } catch (error) {
      return next(error);
    }
    if (isPromise(outcome)) outcome.then(answer, next);
    else answer(outcome);
  };
}

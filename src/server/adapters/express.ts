import type { RequestHandler } from 'express';
import { type CorsOption, corsHeaders, isPreflight, preflightHeaders } from '../cors.js';
import { nodeRequest } from '../node-request.js';
import type { LimitOutcome } from '../outcome.js';
import { deciderOf, isPromise, type RateLimiter } from '../rate-limit.js';

/**
 * Express middleware. The client IP is the socket's (`trustProxy` of the limiter decides about
 * `X-Forwarded-For`; Express's own `trust proxy` setting is not consulted). Limiter errors go to `next`.
 * `cors` sends CORS headers and answers preflights with `204`, uncounted.
 */
export function expressRateLimit(limiter: RateLimiter, options: { cors?: CorsOption } = {}): RequestHandler {
  const decide = deciderOf(limiter);
  const { cors } = options;
  return function expressRateLimitMiddleware(req, res, next) {
    let outcome: LimitOutcome | Promise<LimitOutcome>;
    const request = nodeRequest(req);
    const answer = (outcome: LimitOutcome) => {
      const { headers } = outcome;
      for (let i = 0; i < headers.length; i++) res.setHeader(headers[i]![0], headers[i]![1]);
      if (cors) for (const [name, value] of corsHeaders(cors, request, headers)) res.setHeader(name, value);
      if (outcome.allowed) return next();
      res.status(outcome.status).type('application/json').send(outcome.body);
    };
    try {
      if (cors && isPreflight(cors, request)) {
        res
          .status(204)
          .set(Object.fromEntries(preflightHeaders(cors, request)))
          .end();
        return;
      }
      outcome = decide(request, { ip: req.socket.remoteAddress });
    } catch (error) {
      return next(error);
    }
    if (isPromise(outcome)) outcome.then(answer, next);
    else answer(outcome);
  };
}

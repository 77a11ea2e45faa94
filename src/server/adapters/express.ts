import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CorsOption, corsHeaders, isPreflight, preflightHeaders, validateCors } from '../cors.js';
import type { HeaderList } from '../headers/types.js';
import { isJoined, joinField } from '../joined-fields.js';
import { nodeOwnDate } from '../node-head.js';
import { nodeRequest } from '../node-request.js';
import type { LimitOutcome } from '../outcome.js';
import { deciderOf, isPromise, type RateLimiter } from '../rate-limit.js';
import type { LimitRequest } from '../request.js';

// What the middleware uses of Express, as structural types: `express` is an optional peer, and
// `headway/server`'s declarations must not need it installed (as `headway/redis` never names ioredis).

/** What the middleware reads of Express's `req`. */
export interface ExpressRequest extends IncomingMessage {
  /** The client address under the app's `trust proxy` setting. */
  readonly ip?: string | undefined;
  readonly app?: { get(setting: string): unknown };
}

/** What the middleware calls on Express's `res`. */
export interface ExpressResponse extends ServerResponse {
  status(code: number): this;
  type(type: string): this;
  send(body?: unknown): this;
}

/** Express's `next`: passes on, or hands an error to Express's error handling. */
export type ExpressNext = (error?: unknown) => void;

/** An Express middleware (`app.use(expressRateLimit(limiter))`). */
export type ExpressMiddleware = (req: ExpressRequest, res: ExpressResponse, next: ExpressNext) => void;

/**
 * Puts `headers` on an Express `res`, but a `Date` that is the text Node writes itself is left to
 * Node (see {@link nodeOwnDate}). `setHeader`, not `putHeaders`: Express has changed `res`'s
 * prototype, and an own `writeHead` on such an object made the response ~10 µs dearer.
 */
export function setOnExpress(res: ExpressResponse, headers: HeaderList): void {
  const nodeDate = nodeOwnDate(res);
  for (let i = 0; i < headers.length; i++) {
    const [name, value] = headers[i]!;
    if (value !== nodeDate || name !== 'Date') setJoining(res, name, value);
  }
}

/**
 * `setHeader`, but `Vary`, `Access-Control-Expose-Headers` and the IETF lists join what an
 * earlier middleware set (see {@link joinField}); a later handler adds to them with `res.vary()` /
 * `res.append()`.
 */
function setJoining(res: ExpressResponse, name: string, value: string): void {
  if (isJoined(name)) {
    const theirs = res.getHeader(name);
    res.setHeader(name, joinField(name, theirs === undefined ? null : String(theirs), value) ?? value);
  } else res.setHeader(name, value);
}

/**
 * Puts the outcome's headers (and CORS's) on `res`; passes on, or answers the refusal. One function
 * for every request, not a closure per request.
 */
function answer(
  outcome: LimitOutcome,
  request: LimitRequest,
  res: ExpressResponse,
  next: ExpressNext,
  cors: CorsOption,
): void {
  const { headers } = outcome;
  setOnExpress(res, headers);
  if (cors) for (const [name, value] of corsHeaders(cors, request, headers)) setJoining(res, name, value);
  if (outcome.allowed) next();
  else res.status(outcome.status).type('application/json').send(outcome.body);
}

/**
 * The client address the limiter keys on: `req.ip` when the app's `trust proxy` setting is on
 * (Express then reads `X-Forwarded-For` as that setting says), else the socket's. Set one of the
 * two, Express's `trust proxy` or the limiter's `trustProxy`: the latter counts its hops from
 * the address given here.
 */
function clientAddress(req: ExpressRequest): string | undefined {
  return req.app?.get('trust proxy') ? req.ip : req.socket.remoteAddress;
}

/**
 * Express middleware. The client IP is `req.ip` when the app's `trust proxy` setting is on, else
 * the socket's (see {@link clientAddress}). Limiter errors go to `next`. `cors` sends CORS headers
 * and answers preflights with `204`, uncounted.
 */
export function expressRateLimit(
  limiter: RateLimiter,
  options: { cors?: CorsOption } = {},
): ExpressMiddleware {
  const decide = deciderOf(limiter);
  const cors = validateCors(options.cors);
  return function expressRateLimitMiddleware(req, res, next) {
    let request: LimitRequest;
    let outcome: LimitOutcome | Promise<LimitOutcome>;
    try {
      request = nodeRequest(req);
      if (cors && isPreflight(cors, request)) {
        for (const [name, value] of preflightHeaders(cors, request)) setJoining(res, name, value);
        res.status(204).end();
        return;
      }
      outcome = decide(request, { ip: clientAddress(req) });
    } catch (error) {
      return next(error);
    }
    // A throw while answering (headers already sent by another middleware) goes to `next`, as it
    // does from the synchronous path, never to an unhandled rejection.
    if (isPromise(outcome)) outcome.then((decided) => answer(decided, request, res, next, cors)).catch(next);
    else answer(outcome, request, res, next, cors);
  };
}

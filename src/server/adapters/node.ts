import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { type CorsOption, corsHeaders, isPreflight, preflightHeaders, validateCors } from '../cors.js';
import { putHeaders } from '../node-head.js';
import { nodeRequest } from '../node-request.js';
import type { LimitOutcome } from '../outcome.js';
import { deciderOf, isPromise, type RateLimiter } from '../rate-limit.js';
import type { LimitRequest } from '../request.js';

/** Options of the node adapters. */
export interface NodeAdapterOptions {
  /** Send CORS headers (and answer preflights with `204`, uncounted). @default false */
  cors?: CorsOption;
}

/** Puts the outcome's headers (and CORS's) on `res`; answers a refusal. `true` when the request may go on. */
function apply(outcome: LimitOutcome, res: ServerResponse, request: LimitRequest, cors: CorsOption): boolean {
  const { headers } = outcome;
  putHeaders(res, cors ? [...headers, ...corsHeaders(cors, request, headers)] : headers);
  if (outcome.allowed) return true;
  res.writeHead(outcome.status, { 'content-type': 'application/json' }).end(outcome.body);
  return false;
}

function failed(res: ServerResponse): false {
  if (!res.headersSent) res.writeHead(500);
  res.end();
  return false;
}

/**
 * The limiter over node requests: `true` when the request may go on (headers put on `res`),
 * `false` when it was answered (429/503, a CORS preflight, or 500 if the limiter itself threw);
 * a promise of that only when the limiter could not decide at once (an asynchronous store).
 */
function nodeLimiter(
  limiter: RateLimiter,
  options: NodeAdapterOptions,
): (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean> {
  const decide = deciderOf(limiter);
  const cors = validateCors(options.cors);
  return (req, res) => {
    try {
      const request = nodeRequest(req);
      if (cors && isPreflight(cors, request)) {
        res.writeHead(204, Object.fromEntries(preflightHeaders(cors, request))).end();
        return false;
      }
      const outcome = decide(request, { ip: req.socket.remoteAddress });
      if (!isPromise(outcome)) return apply(outcome, res, request, cors);
      // One catch for the decision and the answer: a throw in either is a 500, never unhandled.
      return outcome.then((o) => apply(o, res, request, cors)).catch(() => failed(res));
    } catch {
      return failed(res);
    }
  };
}

/**
 * Applies the limiter to a node request; resolves `true` when the request may go on (headers put
 * on `res`, written with its head), `false` when it was answered (429/503, a CORS preflight, or
 * 500 if the limiter itself threw).
 */
export async function limitNodeRequest(
  limiter: RateLimiter,
  req: IncomingMessage,
  res: ServerResponse,
  options: NodeAdapterOptions = {},
): Promise<boolean> {
  return nodeLimiter(limiter, options)(req, res);
}

/**
 * Wraps a `node:http` request listener: refused requests are answered, others get headers and
 * pass on. The headers are written with the response head (a header of the same name the listener
 * sets wins; `res.getHeader` does not see them before, see `putHeaders`).
 */
export function nodeRateLimit(
  limiter: RateLimiter,
  listener: RequestListener,
  options: NodeAdapterOptions = {},
): RequestListener {
  const limit = nodeLimiter(limiter, options);
  return function nodeRateLimitListener(req, res) {
    const pass = limit(req, res);
    if (pass === true) listener(req, res);
    else if (pass !== false) void pass.then((go) => go && listener(req, res));
  };
}

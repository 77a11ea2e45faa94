import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { type CorsOption, corsHeaders, isPreflight, preflightHeaders } from '../cors.js';
import { nodeRequest } from '../node-request.js';
import type { LimitOutcome } from '../outcome.js';
import { decide, isPromise, type RateLimiter } from '../rate-limit.js';
import type { LimitRequest } from '../request.js';

/** Options of the node adapters. */
export interface NodeAdapterOptions {
  /** Send CORS headers (and answer preflights with `204`, uncounted). @default false */
  cors?: CorsOption;
}

/** Sets the outcome's headers (and CORS's) on `res`; answers a refusal. `true` when the request may go on. */
function apply(outcome: LimitOutcome, res: ServerResponse, request: LimitRequest, cors: CorsOption): boolean {
  const { headers } = outcome;
  for (let i = 0; i < headers.length; i++) res.setHeader(headers[i]![0], headers[i]![1]);
  if (cors) for (const [name, value] of corsHeaders(cors, request, headers)) res.setHeader(name, value);
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
 * {@link limitNodeRequest} without a promise when the limiter decided at once (an in-process
 * store): `true` when the request may go on, `false` when it was answered (429/503, a CORS
 * preflight, or 500 if the limiter itself threw).
 */
export function limitNodeRequestNow(
  limiter: RateLimiter,
  req: IncomingMessage,
  res: ServerResponse,
  options: NodeAdapterOptions = {},
): boolean | Promise<boolean> {
  const { cors } = options;
  try {
    const request = nodeRequest(req);
    if (cors && isPreflight(cors, request)) {
      res.writeHead(204, Object.fromEntries(preflightHeaders(cors, request))).end();
      return false;
    }
    const outcome = decide(limiter, request, { ip: req.socket.remoteAddress });
    if (!isPromise(outcome)) return apply(outcome, res, request, cors);
    return outcome.then(
      (o) => apply(o, res, request, cors),
      () => failed(res),
    );
  } catch {
    return failed(res);
  }
}

/**
 * Applies the limiter to a node request; resolves `true` when the request may go on (headers set
 * on `res`), `false` when it was answered (429/503, a CORS preflight, or 500 if the limiter itself threw).
 */
export async function limitNodeRequest(
  limiter: RateLimiter,
  req: IncomingMessage,
  res: ServerResponse,
  options: NodeAdapterOptions = {},
): Promise<boolean> {
  return limitNodeRequestNow(limiter, req, res, options);
}

/** Wraps a `node:http` request listener: refused requests are answered, others get headers and pass on. */
export function nodeRateLimit(
  limiter: RateLimiter,
  listener: RequestListener,
  options: NodeAdapterOptions = {},
): RequestListener {
  return function nodeRateLimitListener(req, res) {
    const pass = limitNodeRequestNow(limiter, req, res, options);
    if (pass === true) listener(req, res);
    else if (pass !== false) void pass.then((go) => go && listener(req, res));
  };
}

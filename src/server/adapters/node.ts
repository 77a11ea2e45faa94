import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { type CorsOption, corsHeaders, isPreflight, preflightHeaders } from '../cors.js';
import { nodeRequest } from '../node-request.js';
import type { RateLimiter } from '../rate-limit.js';

/** Options of the node adapters. */
export interface NodeAdapterOptions {
  /** Send CORS headers (and answer preflights with `204`, uncounted). @default false */
  cors?: CorsOption;
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
) {
  const request = nodeRequest(req);
  if (isPreflight(options.cors, request)) {
    res.writeHead(204, Object.fromEntries(preflightHeaders(options.cors, request))).end();
    return false;
  }
  try {
    const outcome = await limiter.check(request, { ip: req.socket.remoteAddress });
    for (const [name, value] of [...outcome.headers, ...corsHeaders(options.cors, request, outcome.headers)])
      res.setHeader(name, value);
    if (outcome.allowed) return true;
    res.writeHead(outcome.status, { 'content-type': 'application/json' }).end(outcome.body);
  } catch {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
  return false;
}

/** Wraps a `node:http` request listener: refused requests are answered, others get headers and pass on. */
export function nodeRateLimit(
  limiter: RateLimiter,
  listener: RequestListener,
  options: NodeAdapterOptions = {},
): RequestListener {
  return (req, res) => {
    void limitNodeRequest(limiter, req, res, options).then((pass) => pass && listener(req, res));
  };
}

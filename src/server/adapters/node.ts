import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { nodeRequest } from '../node-request.js';
import type { RateLimiter } from '../rate-limit.js';

/**
 * Applies the limiter to a node request; resolves `true` when the request may go on (headers set
 * on `res`), `false` when it was answered (429/503, or 500 if the limiter itself threw).
 */
export async function limitNodeRequest(limiter: RateLimiter, req: IncomingMessage, res: ServerResponse) {
  try {
    const outcome = await limiter.check(nodeRequest(req), { ip: req.socket.remoteAddress });
    for (const [name, value] of outcome.headers) res.setHeader(name, value);
    if (outcome.allowed) return true;
    res.writeHead(outcome.status, { 'content-type': 'application/json' }).end(outcome.body);
  } catch {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
  return false;
}

/** Wraps a `node:http` request listener: refused requests are answered, others get headers and pass on. */
export function nodeRateLimit(limiter: RateLimiter, listener: RequestListener): RequestListener {
  return (req, res) => {
    void limitNodeRequest(limiter, req, res).then((pass) => pass && listener(req, res));
  };
}

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { nodeRequest } from '../node-request.js';
import type { LimitOutcome } from '../outcome.js';
import { decide, isPromise, type RateLimiter } from '../rate-limit.js';

/** Sets the outcome's headers on `res`; answers a refusal. `true` when the request may go on. */
function apply(outcome: LimitOutcome, res: ServerResponse): boolean {
  const { headers } = outcome;
  for (let i = 0; i < headers.length; i++) res.setHeader(headers[i]![0], headers[i]![1]);
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
 * store): `true` when the request may go on, `false` when it was answered.
 */
export function limitNodeRequestNow(
  limiter: RateLimiter,
  req: IncomingMessage,
  res: ServerResponse,
): boolean | Promise<boolean> {
  try {
    const outcome = decide(limiter, nodeRequest(req), { ip: req.socket.remoteAddress });
    if (!isPromise(outcome)) return apply(outcome, res);
    return outcome.then(
      (o) => apply(o, res),
      () => failed(res),
    );
  } catch {
    return failed(res);
  }
}

/**
 * Applies the limiter to a node request; resolves `true` when the request may go on (headers set
 * on `res`), `false` when it was answered (429/503, or 500 if the limiter itself threw).
 */
export async function limitNodeRequest(
  limiter: RateLimiter,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  return limitNodeRequestNow(limiter, req, res);
}

/** Wraps a `node:http` request listener: refused requests are answered, others get headers and pass on. */
export function nodeRateLimit(limiter: RateLimiter, listener: RequestListener): RequestListener {
  return function nodeRateLimitListener(req, res) {
    const pass = limitNodeRequestNow(limiter, req, res);
    if (pass === true) listener(req, res);
    else if (pass !== false) void pass.then((go) => go && listener(req, res));
  };
}

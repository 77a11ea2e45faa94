import type { IncomingMessage } from 'node:http';
import type { LimitRequest } from './request.js';

/** A `Headers`-like `get` over a node `IncomingMessage`'s parsed headers (no `Headers` is built). */
export function nodeHeaders(req: IncomingMessage): LimitRequest['headers'] {
  return {
    get(name) {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** A light {@link LimitRequest} view over a node `IncomingMessage` (no `Request` is built). */
export function nodeRequest(req: IncomingMessage): LimitRequest {
  return { method: req.method ?? 'GET', url: req.url ?? '/', headers: nodeHeaders(req) };
}

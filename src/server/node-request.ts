import type { IncomingMessage } from 'node:http';
import type { LimitRequest } from './request.js';

/** A light {@link LimitRequest} view over a node `IncomingMessage` (no `Request` is built). */
export function nodeRequest(req: IncomingMessage): LimitRequest {
  return {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    headers: {
      get(name) {
        const value = req.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
  };
}

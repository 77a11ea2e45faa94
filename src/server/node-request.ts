import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { LimitRequest } from './request.js';

/** `Headers.get` over a node `IncomingMessage`'s parsed headers: one object, no closure. */
class NodeHeaders {
  constructor(readonly raw: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
}

/** A `Headers`-like `get` over a node `IncomingMessage`'s parsed headers (no `Headers` is built). */
export function nodeHeaders(req: IncomingMessage): LimitRequest['headers'] {
  return new NodeHeaders(req.headers);
}

/** A light {@link LimitRequest} view over a node `IncomingMessage` (no `Request` is built). */
export function nodeRequest(req: IncomingMessage): LimitRequest {
  return { method: req.method ?? 'GET', url: req.url ?? '/', headers: new NodeHeaders(req.headers) };
}

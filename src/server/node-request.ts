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

/**
 * A light {@link LimitRequest} view over a node `IncomingMessage` (no `Request` is built). Its
 * `url` is absolute, as a Web `Request`'s (the scheme of the socket, the `Host`, and under Express
 * the URL before any mount path was stripped), made only when read: the default key reads none.
 */
class NodeRequest implements LimitRequest {
  readonly method: string;
  readonly headers: NodeHeaders;

  constructor(readonly req: IncomingMessage & { originalUrl?: string }) {
    this.method = req.method ?? 'GET';
    this.headers = new NodeHeaders(req.headers);
  }

  get url(): string {
    const { req } = this;
    const target = req.originalUrl ?? req.url ?? '/';
    // A request line in absolute form (RFC 9112 §3.2.2, as sent to a proxy) is the URL already.
    if (/^https?:\/\//i.test(target)) return target;
    const scheme = (req.socket as { encrypted?: boolean } | undefined)?.encrypted ? 'https' : 'http';
    const host = req.headers.host ?? req.headers[':authority'] ?? 'localhost';
    return `${scheme}://${host}${target}`;
  }
}

/** A light {@link LimitRequest} view over a node `IncomingMessage` (see {@link NodeRequest}). */
export function nodeRequest(req: IncomingMessage): LimitRequest {
  return new NodeRequest(req);
}

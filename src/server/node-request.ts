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
 * A `Host` a URL can carry (RFC 3986 §3.2.2: a bracketed IPv6 literal or a name, and a port): no
 * `/`, `?`, `#`, `@` or space, which would move the request's path out of the URL's `pathname`.
 */
const AUTHORITY = /^(?:\[[\dA-Fa-f:.]+\]|[^\s/?#@[\]\\:]+)(?::\d*)?$/;

/**
 * A light {@link LimitRequest} view over a node `IncomingMessage` (no `Request` is built). Its
 * `url` is absolute, as a Web `Request`'s (the scheme of the socket, the `Host`, and under Express
 * the URL before any mount path was stripped), made only when read: the default key reads none.
 * A `Host` no URL can carry (see {@link AUTHORITY}) reads as `localhost`, so the path stays the
 * path the request asked for.
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
    const host = req.headers.host ?? req.headers[':authority'];
    return `${scheme}://${typeof host === 'string' && AUTHORITY.test(host) ? host : 'localhost'}${target}`;
  }
}

/** A light {@link LimitRequest} view over a node `IncomingMessage` (see {@link NodeRequest}). */
export function nodeRequest(req: IncomingMessage): LimitRequest {
  return new NodeRequest(req);
}

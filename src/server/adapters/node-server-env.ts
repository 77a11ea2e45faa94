import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HeaderList } from '../headers/types.js';
import { putHeaders } from '../node-head.js';
import { nodeHeaders } from '../node-request.js';
import type { LimitRequest } from '../request.js';

/** What `@hono/node-server` passes as a fetch handler's second argument (Hono's `c.env`). */
export interface NodeServerEnv {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

/** The client address in `@hono/node-server`'s env (`incoming.socket`), else `undefined`. */
export function nodeServerIp(env: unknown): string | undefined {
  return (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket
    ?.remoteAddress;
}

/** `env` when it is `@hono/node-server`'s `{ incoming, outgoing }`, else `undefined`. */
export function nodeServerEnv(env: unknown): NodeServerEnv | undefined {
  const candidate = env as Partial<NodeServerEnv> | undefined;
  return typeof candidate?.outgoing?.setHeader === 'function' && candidate.incoming?.socket
    ? (candidate as NodeServerEnv)
    : undefined;
}

/**
 * Puts `headers` on the node response underneath (see {@link putHeaders}): `@hono/node-server`
 * answers with `outgoing.writeHead(status, headers)`, so the Web `Response` is never copied or
 * given a `Headers` object just for the rate-limit fields.
 */
export function setOnOutgoing(env: NodeServerEnv, headers: HeaderList): void {
  putHeaders(env.outgoing, headers);
}

/** Where the Web `Request` comes from: itself, or a Hono context (`c.req.raw`, built on first use). */
export type WebRequestSource = Request | { readonly req: { readonly raw: Request } };

/**
 * What the limiter reads of a request under `@hono/node-server`: the headers straight from
 * `incoming`, the method and URL from the Web `Request` only when read (the default key reads
 * neither). `@hono/node-server`'s `Request` builds a whole `Headers` object from the raw headers
 * on first `request.headers` access, the largest cost of a limited request; the limiter only ever
 * calls `headers.get`. Hono builds its `c.req` wrapper on first access too.
 */
class NodeServerRequest implements LimitRequest {
  readonly headers: LimitRequest['headers'];

  constructor(
    incoming: IncomingMessage,
    readonly source: WebRequestSource,
  ) {
    this.headers = nodeHeaders(incoming);
  }

  get #web(): Request {
    const { source } = this;
    return 'req' in source ? source.req.raw : source;
  }

  get method(): string {
    return this.#web.method;
  }

  get url(): string {
    return this.#web.url;
  }
}

/** The {@link LimitRequest} of a request under `@hono/node-server` (see {@link NodeServerRequest}). */
export function nodeServerRequest(source: WebRequestSource, env: NodeServerEnv): LimitRequest {
  return new NodeServerRequest(env.incoming, source);
}

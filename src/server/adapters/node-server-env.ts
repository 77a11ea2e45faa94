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

/**
 * What the limiter reads of a request under `@hono/node-server`: its method and URL, with the
 * headers read from `incoming` directly. `@hono/node-server`'s `Request` builds a whole `Headers`
 * object from the raw headers on first `request.headers` access, the largest cost of a limited
 * request; the limiter only ever calls `headers.get`.
 */
export function nodeServerRequest(request: LimitRequest, env: NodeServerEnv): LimitRequest {
  return { method: request.method, url: request.url, headers: nodeHeaders(env.incoming) };
}

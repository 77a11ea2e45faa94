import { createHash } from 'node:crypto';
import { clientIp } from './client-ip.js';
import { ipIdentity } from './ip-group.js';
import type { ClientInfo, LimitRequest } from './request.js';

/** What the default key reads. */
export interface DefaultKeyOptions {
  trustProxy: number;
  ipv6Prefix: number;
}

/** The credential a request presents: `Authorization: Bearer …` or `X-API-Key`. */
function credential(request: LimitRequest): string | undefined {
  const bearer = request.headers.get('authorization')?.match(/^\s*bearer\s+(\S+)\s*$/i)?.[1];
  return bearer ?? (request.headers.get('x-api-key')?.trim() || undefined);
}

/**
 * The default key: `key:<sha256 prefix>` for a request with an API key (bearer token or
 * `X-API-Key`) — hashed, so secrets never sit in the store, in Redis or in metrics — else
 * `ip:<address>` (IPv6 grouped by prefix, see {@link ipIdentity}). The key is not authenticated:
 * a client can send random keys, so keep a per-IP limit in front of unauthenticated traffic.
 */
export function defaultKey(request: LimitRequest, info: ClientInfo, options: DefaultKeyOptions): string {
  const secret = credential(request);
  if (secret) return `key:${createHash('sha256').update(secret).digest('hex').slice(0, 32)}`;
  return `ip:${ipIdentity(clientIp(request, info, options.trustProxy), options.ipv6Prefix)}`;
}

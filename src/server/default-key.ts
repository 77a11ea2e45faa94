import { createHash } from 'node:crypto';
import { Generations } from '../core/generations.js';
import { clientIp } from './client-ip.js';
import { ipIdentity } from './ip-group.js';
import type { ClientInfo, LimitRequest } from './request.js';

/** What the default key reads. */
export interface DefaultKeyOptions {
  trustProxy: number;
  ipv6Prefix: number;
}

/** Distinct addresses and credentials whose key is remembered (each cache holds at most twice this). */
const REMEMBERED = 1024;

const BEARER = /^\s*bearer\s+(\S+)\s*$/i;

/** The credential a request presents: `Authorization: Bearer …` or `X-API-Key`. */
function credential(request: LimitRequest): string | undefined {
  const authorization = request.headers.get('authorization');
  const bearer = authorization === null ? undefined : BEARER.exec(authorization)?.[1];
  return bearer ?? (request.headers.get('x-api-key')?.trim() || undefined);
}

/** `key:<sha256 prefix>` of a credential. */
function hashedKey(secret: string): string {
  return `key:${createHash('sha256').update(secret).digest('hex').slice(0, 32)}`;
}

/**
 * The default key: `key:<sha256 prefix>` for a request with an API key (bearer token or
 * `X-API-Key`) — hashed, so secrets never sit in the store, in Redis or in metrics — else
 * `ip:<address>` (IPv6 grouped by prefix, see {@link ipIdentity}). The key is not authenticated:
 * a client can send random keys, so keep a per-IP limit in front of unauthenticated traffic.
 *
 * The returned function remembers the keys of the last ~{@link REMEMBERED} addresses and
 * credentials (in this process only), so a returning client costs a map lookup, not a hash.
 */
export function defaultKeyOf(
  options: DefaultKeyOptions,
): (request: LimitRequest, info: ClientInfo) => string {
  const byAddress = new Generations<string>(REMEMBERED);
  const bySecret = new Generations<string>(REMEMBERED);
  const ipKey = (address: string) => `ip:${ipIdentity(address, options.ipv6Prefix)}`;
  return (request, info) => {
    const secret = credential(request);
    if (secret) return bySecret.getOrSet(secret, hashedKey);
    return byAddress.getOrSet(clientIp(request, info, options.trustProxy) ?? '', ipKey);
  };
}

import { addressOf } from './ip-group.js';
import type { ClientInfo, LimitRequest } from './request.js';

/**
 * The client address, trusting exactly `trustProxy` proxy hops of `X-Forwarded-For`:
 * the chain is `[...X-Forwarded-For, socket address]`, and the client is the entry `trustProxy`
 * places left of the socket (clamped to the leftmost). With `trustProxy: 0` (the default) the
 * header is ignored: anyone can write it, so trusting it lets a client pick its own key. An entry
 * may carry a port, as some proxies write it (Azure Application Gateway: `203.0.113.7:51234`,
 * `[2001:db8::7]:51234`): the address is what counts. An entry that is not an IP address (no proxy
 * writes one: a client forged it) is passed over for the nearest address right of it, so junk
 * never becomes a key.
 */
export function clientIp(request: LimitRequest, info: ClientInfo, trustProxy: number): string | undefined {
  if (trustProxy === 0) return info.ip;
  const forwarded = (request.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop.length > 0);
  // The socket holds its place even when its address is unknown (a fetch handler given no `ip`):
  // else a client's forged entry would move into the trusted proxy's place.
  const chain: (string | undefined)[] = [...forwarded, info.ip];
  for (let i = Math.max(0, chain.length - 1 - trustProxy); i < chain.length; i++) {
    const address = chain[i] === undefined ? undefined : addressOf(chain[i] as string);
    if (address !== undefined) return address;
  }
  return info.ip;
}

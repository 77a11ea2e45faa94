import { isIP, isIPv4, isIPv6 } from 'node:net';

/** Expands an IPv6 address (no zone) into its eight 16-bit groups, or `undefined` if malformed. */
function groups(address: string): number[] | undefined {
  const hex = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    [((+a << 8) | +b).toString(16), ((+c << 8) | +d).toString(16)].join(':'),
  );
  const [head = '', rest] = hex.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(rest ?? '');
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  const all = [...left, ...new Array<number>(Math.max(0, fill)).fill(0), ...right];
  return all.length === 8 && all.every((g) => g >= 0 && g <= 0xffff) ? all : undefined;
}

/** An IPv4 entry with a port (`1.2.3.4:80`), or a bracketed IPv6 one with or without (`[::1]:80`). */
const WITH_PORT = /^(?:(\d{1,3}(?:\.\d{1,3}){3})|\[([^\]]+)\])(?::\d{1,5})?$/;

/**
 * The IP address an `X-Forwarded-For` entry or a socket address names, without a port (`1.2.3.4:80`,
 * `[::1]:80`, as some proxies write them; a zone kept); `undefined` when it names none.
 */
export function addressOf(hop: string): string | undefined {
  if (isIP(hop.replace(/%.*$/, '')) !== 0) return hop;
  const match = WITH_PORT.exec(hop);
  const address = match?.[1] ?? match?.[2];
  return address !== undefined && isIP(address.replace(/%.*$/, '')) !== 0 ? address : undefined;
}

/**
 * The limiting identity of a client address:
 * - IPv4 as is (`203.0.113.7`), without a port (`203.0.113.7:51234`, as a proxy may write it);
 * - IPv4-mapped IPv6 (`::ffff:203.0.113.7`) as its IPv4 address;
 * - IPv6 grouped to its `/prefix` network (a single host usually owns a whole /56 or /64, and would
 *   otherwise get a fresh quota per address), written as `2001:db8:0:ab00::/56`;
 * - anything else (a unix socket, an unknown) verbatim, or `unknown` when empty.
 */
export function ipIdentity(address: string | undefined, prefix: number): string {
  const trimmed = (address ?? '').trim();
  const bare = (addressOf(trimmed) ?? trimmed.replace(/^\[|\]$/g, '')).replace(/%.*$/, '');
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return bare || 'unknown';
  const all = groups(bare);
  if (!all) return bare;
  if (all.slice(0, 5).every((g) => g === 0) && all[5] === 0xffff) {
    return `${all[6]! >> 8}.${all[6]! & 0xff}.${all[7]! >> 8}.${all[7]! & 0xff}`;
  }
  const masked = all.map((g, i) => {
    const bits = Math.min(16, Math.max(0, prefix - i * 16));
    return bits === 0 ? 0 : g & (0xffff << (16 - bits)) & 0xffff;
  });
  const used = Math.ceil(prefix / 16);
  return `${masked
    .slice(0, used)
    .map((g) => g.toString(16))
    .join(':')}${used < 8 ? '::' : ''}/${prefix}`;
}

import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { clientIp } from '../../src/server/client-ip.js';
import { rateLimit } from '../../src/server/rate-limit.js';

const req = (headers: Record<string, string> = {}) => new Request('http://api.test/', { headers });

/**
 * `clientIp` (src/server/client-ip.ts) passes over an X-Forwarded-For entry that is not a bare IP
 * address because "no proxy writes one: a client forged it". But a trusted proxy does write
 * `address:port`: Azure Application Gateway documents its X-Forwarded-For as "a comma-separated
 * list of IP:Port" (`203.0.113.7:51234`, `[2001:db8::7]:51234` for IPv6). The entry the trusted
 * proxy appended is then passed over for the proxy's own socket address, and every client behind
 * that proxy shares one quota.
 */
describe('trustProxy with a proxy that writes address:port (Azure Application Gateway)', () => {
  it('reads the client address of an IPv4 entry with a port', () => {
    expect(clientIp(req({ 'x-forwarded-for': '203.0.113.7:51234' }), { ip: '10.0.0.1' }, 1)).toBe(
      '203.0.113.7',
    );
  });

  it('reads the client address of a bracketed IPv6 entry with a port', () => {
    const forwarded = req({ 'x-forwarded-for': '[2001:db8::7]:51234' });
    expect(clientIp(forwarded, { ip: '10.0.0.1' }, 1)?.replace(/^\[|\]$/g, '')).toBe('2001:db8::7');
  });

  it('gives two clients behind the proxy a quota each, not one shared with the proxy', async () => {
    const limiter = rateLimit({ clock: new ManualClock(), trustProxy: 1, policy: { limit: 1 } });
    const a = await limiter.check(req({ 'x-forwarded-for': '203.0.113.7:51234' }), { ip: '10.0.0.1' });
    const b = await limiter.check(req({ 'x-forwarded-for': '198.51.100.9:40000' }), { ip: '10.0.0.1' });
    expect([a.key, b.key]).toEqual(['ip:203.0.113.7', 'ip:198.51.100.9']);
    expect(b.status).toBe(200);
  });
});

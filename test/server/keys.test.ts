import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { clientIp } from '../../src/server/client-ip.js';
import { defaultKeyOf } from '../../src/server/default-key.js';
import { ipIdentity } from '../../src/server/ip-group.js';
import { rateLimit } from '../../src/server/rate-limit.js';

const req = (headers: Record<string, string> = {}) => new Request('http://api.test/', { headers });
const options = { trustProxy: 0, ipv6Prefix: 56 };

describe('default key', () => {
  it('ignores a spoofed X-Forwarded-For without trustProxy', async () => {
    const limiter = rateLimit({ policy: { limit: 1 }, clock: new ManualClock() });
    const first = await limiter.check(req({ 'x-forwarded-for': '198.51.100.1' }), { ip: '192.0.2.9' });
    const spoofed = await limiter.check(req({ 'x-forwarded-for': '198.51.100.2' }), { ip: '192.0.2.9' });
    expect(first.key).toBe('ip:192.0.2.9');
    expect(spoofed.key).toBe('ip:192.0.2.9');
    expect(spoofed.allowed).toBe(false);
  });

  it('trusts exactly trustProxy hops of X-Forwarded-For', () => {
    const chain = req({ 'x-forwarded-for': '203.0.113.66, 198.51.100.7, 10.0.0.2' });
    expect(clientIp(chain, { ip: '10.0.0.1' }, 0)).toBe('10.0.0.1');
    expect(clientIp(chain, { ip: '10.0.0.1' }, 1)).toBe('10.0.0.2');
    expect(clientIp(chain, { ip: '10.0.0.1' }, 2)).toBe('198.51.100.7');
    expect(clientIp(chain, { ip: '10.0.0.1' }, 3)).toBe('203.0.113.66');
    expect(clientIp(chain, { ip: '10.0.0.1' }, 9)).toBe('203.0.113.66');
    expect(clientIp(req(), { ip: '10.0.0.1' }, 1)).toBe('10.0.0.1');
  });

  it('keys API clients by a hash of their credential, never the secret itself', () => {
    const defaultKey = defaultKeyOf(options);
    const bearer = defaultKey(req({ authorization: 'Bearer s3cret' }), { ip: '1.2.3.4' });
    const apiKey = defaultKey(req({ 'x-api-key': 's3cret' }), { ip: '5.6.7.8' });
    expect(bearer).toMatch(/^key:[0-9a-f]{32}$/);
    expect(bearer).toBe(apiKey);
    expect(bearer).not.toContain('s3cret');
    expect(defaultKey(req({ authorization: 'Basic abc' }), { ip: '1.2.3.4' })).toBe('ip:1.2.3.4');
  });

  it('gives a returning client the same key from its cache, and a new client its own', () => {
    const defaultKey = defaultKeyOf({ trustProxy: 1, ipv6Prefix: 56 });
    const forwarded = (ip: string) => req({ 'x-forwarded-for': ip });
    const first = defaultKey(forwarded('2001:db8:1:2ff::1'), { ip: '10.0.0.1' });
    expect(defaultKey(forwarded('2001:db8:1:2ff::1'), { ip: '10.0.0.1' })).toBe(first);
    expect(first).toBe('ip:2001:db8:1:200::/56');
    for (let i = 0; i < 3000; i++) defaultKey(forwarded(`192.0.2.${i % 256}`), { ip: `10.0.${i >> 8}.1` });
    expect(defaultKey(forwarded('2001:db8:1:2ff::1'), { ip: '10.0.0.1' })).toBe(first);
    expect(defaultKey(forwarded('198.51.100.3'), { ip: '10.0.0.1' })).toBe('ip:198.51.100.3');
    const a = defaultKey(req({ 'x-api-key': 'a' }), {});
    expect(defaultKey(req({ 'x-api-key': 'b' }), {})).not.toBe(a);
    expect(defaultKey(req({ 'x-api-key': 'a' }), {})).toBe(a);
  });

  it('groups IPv6 by prefix and unwraps IPv4-mapped addresses', () => {
    expect(ipIdentity('2001:db8:1234:5678:9abc::1', 56)).toBe('2001:db8:1234:5600::/56');
    expect(ipIdentity('2001:db8:1234:56ff:ffff::2', 56)).toBe('2001:db8:1234:5600::/56');
    expect(ipIdentity('2001:db8:1234:5678::1', 64)).toBe('2001:db8:1234:5678::/64');
    expect(ipIdentity('::ffff:192.0.2.1', 56)).toBe('192.0.2.1');
    expect(ipIdentity('::ffff:c000:201', 56)).toBe('192.0.2.1');
    expect(ipIdentity('fe80::1%eth0', 16)).toBe('fe80::/16');
    expect(ipIdentity('[2001:db8::1]', 32)).toBe('2001:db8::/32');
    expect(ipIdentity(undefined, 56)).toBe('unknown');
    expect(defaultKeyOf(options)(req(), { ip: '::ffff:192.0.2.1' })).toBe('ip:192.0.2.1');
  });

  it('keys an address given with a port (Express `req.ip` behind a proxy that writes one) by the address', () => {
    expect(ipIdentity('203.0.113.7:51234', 56)).toBe('203.0.113.7');
    expect(ipIdentity('[2001:db8::7]:51234', 32)).toBe('2001:db8::/32');
    expect(ipIdentity('[2001:db8::7]:1', 32)).toBe(ipIdentity('2001:db8::7', 32));
    // Not an address: kept as is (a unix socket path), never read as one.
    expect(ipIdentity('/tmp/app.sock', 56)).toBe('/tmp/app.sock');
  });
});

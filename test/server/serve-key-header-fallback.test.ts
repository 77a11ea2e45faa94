import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { startServer } from '../../src/server/serve.js';

/**
 * `ServeOptions.keyHeader` (src/server/serve.ts): "Key requests by this header's value (else the
 * limiter's default key)"; README, `headway serve`: `--key-header NAME` | key requests by this
 * header's value | the default key. And `limiter`: "Any other limiter option (store,
 * retryAfterMsHeader, trustProxy, …)". A request without the header must then get the default key
 * (`trustProxy`, IPv6 grouping and the hashed credential included), and a header's value must never
 * name another client's quota.
 */
describe('headway serve --key-header: a request without the header gets the default key', () => {
  it('honours trustProxy for a request without the header, as the default key does', async () => {
    const clock = new ManualClock();
    const server = await startServer({
      clock,
      keyHeader: 'X-Tenant',
      rate: 1,
      burst: 1,
      limiter: { trustProxy: 1 },
    });
    try {
      // Two clients behind one trusted proxy (the test's socket, 127.0.0.1), neither naming a tenant.
      const a = await fetch(server.url, { headers: { 'x-forwarded-for': '198.51.100.1' } });
      const b = await fetch(server.url, { headers: { 'x-forwarded-for': '198.51.100.2' } });
      expect(a.status).toBe(200);
      expect(
        server
          .metrics()
          .keys.map((k) => k.key)
          .sort(),
      ).toEqual(['ip:198.51.100.1', 'ip:198.51.100.2']);
      expect(b.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('keys a request without the header by its hashed API key, as the default key does', async () => {
    const clock = new ManualClock();
    const server = await startServer({ clock, keyHeader: 'X-Tenant', rate: 1, burst: 1 });
    try {
      const anonymous = await fetch(server.url);
      const withKey = await fetch(server.url, { headers: { authorization: 'Bearer s3cret' } });
      expect(anonymous.status).toBe(200);
      expect(server.metrics().keys.map((k) => k.key)).toContainEqual(
        expect.stringMatching(/^key:[0-9a-f]{32}$/),
      );
      expect(withKey.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("a header's value cannot spend the quota of an address", async () => {
    const clock = new ManualClock();
    const server = await startServer({ clock, keyHeader: 'X-Tenant', rate: 1, burst: 1 });
    try {
      // Anyone can send `X-Tenant: ip:<victim>`: it must not land on the victim's own quota.
      const forged = await fetch(server.url, { headers: { 'x-tenant': 'ip:127.0.0.1' } });
      const victim = await fetch(server.url);
      expect(forged.status).toBe(200);
      expect(victim.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

/**
 * Clients that attack the server face: a million distinct keys, spoofed X-Forwarded-For chains,
 * IPv6 rotation inside one /56, keys made of CR/LF, braces or 100 KB of text, malformed
 * `Authorization`. Outcome: memory bounded by `maxKeys`, keys that cannot be forged, no header
 * injection, no throw. All on the manual clock.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { memoryStore } from '../../src/stores/memory.js';

const req = (headers: Record<string, string> = {}) => new Request('http://api.test/', { headers });

describe('hostile clients', () => {
  it('1,000,000 distinct keys keep at most maxKeys in the memory store', async () => {
    const clock = new ManualClock();
    const store = memoryStore({ maxKeys: 10_000, clock });
    const limit = { algorithm: 'token-bucket', limit: 10, windowMs: 1_000 } as const;
    let largest = 0;
    for (let i = 0; i < 1_000_000; i++) {
      await store.take(`ip:${i}`, limit, 1);
      if (store.size > largest) largest = store.size;
    }
    expect(largest).toBeLessThanOrEqual(10_000);
    // And a key touched within the last maxKeys / 2 distinct keys is still limited.
    for (let i = 0; i < 10; i++) await store.take('ip:victim', limit, 1);
    for (let i = 0; i < 4_000; i++) await store.take(`ip:other-${i}`, limit, 1);
    expect((await store.take('ip:victim', limit, 1)).allowed).toBe(false);
  }, 60_000);

  it('a spoofed X-Forwarded-For cannot change the key: without trustProxy, or beyond the trusted hops', async () => {
    const untrusting = rateLimit({ policy: { limit: 3 }, clock: new ManualClock() });
    const oneProxy = rateLimit({ policy: { limit: 3 }, trustProxy: 1, clock: new ManualClock() });
    const keys = new Set<string>();
    const proxyKeys = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const forged = `198.51.100.${i}, 203.0.113.${i}`;
      keys.add((await untrusting.check(req({ 'x-forwarded-for': forged }), { ip: '192.0.2.9' })).key);
      // Our proxy appends the address it saw: only that last hop is trusted.
      const viaProxy = req({ 'x-forwarded-for': `${forged}, 192.0.2.77` });
      proxyKeys.add((await oneProxy.check(viaProxy, { ip: '10.0.0.1' })).key);
    }
    expect([...keys]).toEqual(['ip:192.0.2.9']);
    expect([...proxyKeys]).toEqual(['ip:192.0.2.77']);
  });

  it('garbage in X-Forwarded-For never throws and never becomes part of a key', async () => {
    const limiter = rateLimit({ policy: { limit: 3 }, trustProxy: 2, clock: new ManualClock() });
    for (const value of [
      '',
      ',,,',
      'not-an-ip',
      '999.999.999.999',
      'x'.repeat(100_000),
      '[::1]%zone, junk',
      '::::::',
    ]) {
      const outcome = await limiter.check(req({ 'x-forwarded-for': value }), { ip: '192.0.2.9' });
      expect(outcome.key.length).toBeLessThan(64);
      expect(outcome.key).not.toContain('x'.repeat(10));
    }
  });

  it('rotating IPv6 addresses inside one /56 is one client', async () => {
    const limiter = rateLimit({ policy: { limit: 5, windowMs: 60_000 }, clock: new ManualClock() });
    const outcomes = [];
    for (let i = 0; i < 200; i++) {
      const ip = `2001:db8:1234:56${(i % 256).toString(16).padStart(2, '0')}:${i.toString(16)}::1`;
      outcomes.push(await limiter.check(req(), { ip }));
    }
    expect(new Set(outcomes.map((o) => o.key)).size).toBe(1);
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(5);
  });

  it('keys with CR/LF, braces or 100 KB of text: no header carries them, nothing throws', async () => {
    const hostile = [
      'a\r\nSet-Cookie: x=1',
      '{}',
      '}{',
      `{${'k'.repeat(100)}}`,
      'z'.repeat(100_000),
      '\u0000',
    ];
    for (const key of hostile) {
      const limiter = rateLimit({ policy: { limit: 1 }, key: () => key, clock: new ManualClock() });
      for (const outcome of [await limiter.check(req()), await limiter.check(req())]) {
        for (const [name, value] of outcome.headers) {
          expect(name).toMatch(/^[a-z0-9-]+$/i);
          expect(value).not.toMatch(/[\r\n\u0000]/);
          expect(value.length).toBeLessThan(1_000);
        }
      }
    }
  });

  it('malformed Authorization falls back to the IP or a hash, never throws, never leaks', async () => {
    const limiter = rateLimit({ policy: { limit: 3 }, clock: new ManualClock() });
    for (const value of [
      'Bearer',
      'Bearer ',
      'Bearer      ',
      `Bearer ${'s'.repeat(100_000)}`,
      'Basic',
      '\u00e9\u00e9',
      'Bearer a b c',
    ]) {
      const outcome = await limiter.check(req({ authorization: value }), { ip: '192.0.2.9' });
      expect(outcome.key).toMatch(/^(ip:192\.0\.2\.9|key:[0-9a-f]{32})$/);
    }
  });
});

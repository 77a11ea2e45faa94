/**
 * The client against vendor header shapes and network faults, with msw standing in for the
 * vendors (their real hosts are never contacted: every URL is on 127.0.0.1 and msw answers).
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { RateLimitedError } from '../../src/errors.js';
import { runUntilSettled } from './fake-server.js';

const WALL = Date.UTC(2026, 10, 30, 12, 0, 0);
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Records the manual-clock time of every request a handler sees. */
function recorder(clock: ManualClock) {
  const times: number[] = [];
  return { times, hit: () => times.push(clock.now()) };
}

describe('vendor shapes (msw)', () => {
  it('GitHub: 403 with x-ratelimit-remaining 0 waits for the epoch-second reset', async () => {
    const clock = new ManualClock(0, WALL);
    const seen = recorder(clock);
    const resetEpoch = Math.floor(WALL / 1000) + 30;
    server.use(
      http.get('http://127.0.0.1:7001/repos', () => {
        seen.hit();
        if (seen.times.length === 1) {
          return new HttpResponse('rate limited', {
            status: 403,
            headers: {
              'x-ratelimit-limit': '60',
              'x-ratelimit-remaining': '0',
              'x-ratelimit-reset': String(resetEpoch),
              'x-ratelimit-used': '60',
            },
          });
        }
        return HttpResponse.json({ ok: true }, { headers: { 'x-ratelimit-remaining': '59' } });
      }),
    );
    const fetch = createFetch({ clock, random: () => 0 });
    const [res] = await runUntilSettled(clock, [fetch('http://127.0.0.1:7001/repos')], 500);
    expect(res).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    expect(seen.times[1]).toBeGreaterThanOrEqual(30_000);
  });

  it('OpenAI: retry-after-ms is preferred to Retry-After', async () => {
    const clock = new ManualClock(0, WALL);
    const seen = recorder(clock);
    server.use(
      http.post('http://127.0.0.1:7002/v1/chat/completions', () => {
        seen.hit();
        if (seen.times.length === 1) {
          return new HttpResponse(null, {
            status: 429,
            headers: {
              'retry-after': '2',
              'retry-after-ms': '1500',
              'x-ratelimit-limit-requests': '60',
              'x-ratelimit-remaining-requests': '0',
              'x-ratelimit-reset-requests': '1s',
              'x-ratelimit-limit-tokens': '150000',
              'x-ratelimit-remaining-tokens': '149000',
              'x-ratelimit-reset-tokens': '6m0s',
            },
          });
        }
        return HttpResponse.json({ id: 'x' });
      }),
    );
    const fetch = createFetch({ clock, random: () => 0 });
    const call = fetch('http://127.0.0.1:7002/v1/chat/completions', { method: 'POST', body: '{}' });
    const [res] = await runUntilSettled(clock, [call], 50);
    expect(res).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    expect(seen.times[1]).toBeGreaterThanOrEqual(1500);
    expect(seen.times[1]).toBeLessThan(2000);
  });

  it('Anthropic: 429 with Retry-After and RFC 3339 resets', async () => {
    const clock = new ManualClock(0, WALL);
    const seen = recorder(clock);
    server.use(
      http.post('http://127.0.0.1:7003/v1/messages', () => {
        seen.hit();
        if (seen.times.length === 1) {
          return new HttpResponse(null, {
            status: 429,
            headers: {
              'retry-after': '3',
              'anthropic-ratelimit-requests-limit': '50',
              'anthropic-ratelimit-requests-remaining': '0',
              'anthropic-ratelimit-requests-reset': new Date(WALL + 3000).toISOString(),
            },
          });
        }
        return HttpResponse.json({ ok: true });
      }),
    );
    const fetch = createFetch({ clock, random: () => 0 });
    const rateLimited: Array<number | null> = [];
    fetch.onRateLimited((e) => rateLimited.push(e.retryAfterMs));
    const call = fetch('http://127.0.0.1:7003/v1/messages', { method: 'POST', body: '{}' });
    const [res] = await runUntilSettled(clock, [call], 50);
    expect(res).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    expect(rateLimited).toEqual([3000]);
    expect(seen.times[1]).toBeGreaterThanOrEqual(3000);
  });

  it('Discord: X-RateLimit-Reset-After in decimal seconds holds the key after remaining 0', async () => {
    const clock = new ManualClock(0, WALL);
    const seen = recorder(clock);
    server.use(
      http.get('http://127.0.0.1:7004/api/channels', () => {
        seen.hit();
        const remaining = seen.times.length === 1 ? 0 : 4;
        return HttpResponse.json(
          {},
          {
            headers: {
              'x-ratelimit-limit': '5',
              'x-ratelimit-remaining': String(remaining),
              'x-ratelimit-reset-after': '0.25',
              'x-ratelimit-bucket': 'abc',
            },
          },
        );
      }),
    );
    const fetch = createFetch({ clock });
    await runUntilSettled(clock, [fetch('http://127.0.0.1:7004/api/channels')], 10);
    const [second] = await runUntilSettled(clock, [fetch('http://127.0.0.1:7004/api/channels')], 10);
    expect(second).toMatchObject({ status: 'fulfilled' });
    expect(seen.times[1]! - seen.times[0]!).toBeGreaterThanOrEqual(250);
    expect(fetch.stats()[0]!.rateLimited).toBe(0);
  });

  it('Shopify: a 429 with Retry-After: 2.0 is retried after two seconds', async () => {
    const clock = new ManualClock(0, WALL);
    const seen = recorder(clock);
    server.use(
      http.get('http://127.0.0.1:7005/admin/api/products.json', () => {
        seen.hit();
        if (seen.times.length === 1) {
          return new HttpResponse(null, {
            status: 429,
            headers: { 'retry-after': '2.0', 'x-shopify-shop-api-call-limit': '40/40' },
          });
        }
        return HttpResponse.json({}, { headers: { 'x-shopify-shop-api-call-limit': '39/40' } });
      }),
    );
    const fetch = createFetch({ clock, random: () => 0 });
    const [res] = await runUntilSettled(clock, [fetch('http://127.0.0.1:7005/admin/api/products.json')], 50);
    expect(res).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    expect(seen.times[1]).toBeGreaterThanOrEqual(2000);
  });

  it('a Retry-After beyond maxRetryAfterMs fails fast with the time attached', async () => {
    const clock = new ManualClock(0, WALL);
    server.use(
      http.get(
        'http://127.0.0.1:7006/x',
        () => new HttpResponse(null, { status: 429, headers: { 'retry-after': '3600' } }),
      ),
    );
    const fetch = createFetch({ clock });
    const error = await fetch('http://127.0.0.1:7006/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAt).toBe(WALL + 3_600_000);
    expect((error as RateLimitedError).response?.status).toBe(429);
  });
});

describe('network faults (msw)', () => {
  it('retries a GET after a network error and succeeds', async () => {
    const clock = new ManualClock(0, WALL);
    let hits = 0;
    server.use(
      http.get('http://127.0.0.1:7007/flaky', () => {
        hits++;
        return hits === 1 ? HttpResponse.error() : HttpResponse.text('ok');
      }),
    );
    const fetch = createFetch({ clock, random: () => 0.5 });
    const [res] = await runUntilSettled(clock, [fetch('http://127.0.0.1:7007/flaky')], 10);
    expect(res).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    expect(hits).toBe(2);
  });

  it('does not retry a POST after a network error: the fault reaches the caller', async () => {
    const clock = new ManualClock(0, WALL);
    let hits = 0;
    server.use(
      http.post('http://127.0.0.1:7008/pay', () => {
        hits++;
        return HttpResponse.error();
      }),
    );
    const fetch = createFetch({ clock });
    await expect(fetch('http://127.0.0.1:7008/pay', { method: 'POST', body: '{}' })).rejects.toBeInstanceOf(
      TypeError,
    );
    expect(hits).toBe(1);
  });
});

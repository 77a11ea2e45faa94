import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { startServer } from '../../src/server/serve.js';
import { readRateLimit } from '../../src/signals/read-rate-limit.js';

/**
 * A manual clock whose `asleep` resolves once the server sleeps `latencyMs` on it (an answer is in
 * its delay).
 */
function latencyClock(latencyMs: number): { manual: ManualClock; clock: Clock; asleep: Promise<void> } {
  const manual = new ManualClock();
  let sleeping: () => void = () => {};
  const asleep = new Promise<void>((resolve) => {
    sleeping = resolve;
  });
  const clock: Clock = {
    now: () => manual.now(),
    wallNow: () => manual.wallNow(),
    sleep: (ms, signal) => {
      if (ms === latencyMs) sleeping();
      return manual.sleep(ms, signal);
    },
  };
  return { manual, clock, asleep };
}

describe('startServer', () => {
  it('serves the contract on loopback with an injected clock', async () => {
    const clock = new ManualClock();
    const server = await startServer({ clock, rate: 2, burst: 2 });
    try {
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await fetch(server.url)).status);
      expect(statuses).toEqual([200, 200, 429]);
      await clock.advance(500);
      expect((await fetch(server.url)).status).toBe(200);
      expect(server.metrics()).toMatchObject({ allowed: 3, refused: 1 });
    } finally {
      await server.close();
    }
  });

  it('injects an outage: 503 without Retry-After for the first failForMs', async () => {
    const clock = new ManualClock();
    const server = await startServer({ clock, failForMs: 1000 });
    try {
      const down = await fetch(server.url);
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBeNull();
      await clock.advance(1000);
      expect((await fetch(server.url)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('lies in its Date header (and epoch resets) by clockSkewMs', async () => {
    const clock = new ManualClock();
    const server = await startServer({
      clock,
      clockSkewMs: 3_600_000,
      headers: 'x-ratelimit',
      rate: 1,
      burst: 1,
    });
    try {
      const response = await fetch(server.url);
      const skewed = clock.wallNow() + 3_600_000;
      expect(response.headers.get('date')).toBe(new Date(skewed).toUTCString());
      // The client measures the epoch reset against the lying Date header: skew cancels out.
      expect(readRateLimit(response, { receivedAt: clock.wallNow() })).toMatchObject({
        limit: 1,
        remaining: 0,
        resetInMs: 1000,
      });
    } finally {
      await server.close();
    }
  });

  it.each(['draft-6', 'draft-7', 'x-ratelimit', 'none'] as const)(
    'writes %s headers with a window algorithm',
    async (headers) => {
      const clock = new ManualClock();
      const server = await startServer({
        clock,
        headers,
        algorithm: 'fixed-window',
        rate: 5,
        windowMs: 2000,
      });
      try {
        const response = await fetch(server.url);
        const read = readRateLimit(response, { receivedAt: clock.wallNow() });
        if (headers === 'none') expect(response.headers.get('ratelimit-policy')).toBeNull();
        else expect(read.remaining).toBe(9);
        if (headers === 'draft-6' || headers === 'draft-7') {
          expect(read.limit).toBe(10);
          expect(read.policies[0]).toMatchObject({ quota: 10, windowMs: 2000 });
        }
      } finally {
        await server.close();
      }
    },
  );

  it('keys by a header and observes without refusing', async () => {
    const clock = new ManualClock();
    const server = await startServer({ clock, keyHeader: 'X-Tenant', mode: 'observe', rate: 1, burst: 1 });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await fetch(server.url, { headers: { 'x-tenant': 'acme' } })).status).toBe(200);
      }
      expect(server.metrics()).toMatchObject({ allowed: 1, wouldRefuse: 2, refusedKeys: 1 });
      expect(server.metrics().keys[0]?.key).toBe('x-tenant=acme');
    } finally {
      await server.close();
    }
  });

  it('delays admitted answers by latencyMs on its clock', async () => {
    const { manual, clock, asleep } = latencyClock(250);
    const server = await startServer({ clock, latencyMs: 250 });
    try {
      let answered = false;
      const pending = fetch(server.url).then((r) => {
        answered = true;
        return r.status;
      });
      await asleep;
      expect(answered).toBe(false);
      await manual.advance(250);
      expect(await pending).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('startServer latencyMs: close() while an answer is delayed', () => {
  // `close()` "stops listening and closes open connections": an answer still in its delay has no
  // connection left, and its delay must not outlive the server (a timer left behind kept `headway
  // serve` alive for up to `latencyMs` after SIGINT).
  it('leaves no latency sleep pending on the clock', async () => {
    const { manual, clock, asleep } = latencyClock(60_000);
    const server = await startServer({ clock, latencyMs: 60_000 });
    const pending = fetch(server.url).then(
      (r) => r.status,
      () => 'connection closed',
    );
    await asleep;
    expect(manual.pending).toBe(1);
    await server.close();
    expect(await pending).toBe('connection closed');
    expect(manual.pending).toBe(0);
  });
});

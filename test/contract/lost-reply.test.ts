/**
 * A take whose reply is lost with its connection spends at most one unit. ioredis sends again,
 * after a reconnect, the commands whose replies were lost (`autoResendUnfulfilledCommands`, on by
 * default): the batch's `EVALSHA` would run twice and the caller get one decision for two units.
 * The client the README gives turns that off; the caller then gets a typed error, or a decision
 * that spent one unit.
 */
import { connect, createServer, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStore } from '../../src/redis/index.js';
import { redisUrl, uniquePrefix } from '../support/redis.js';

/** A TCP proxy to Redis that can drop the first reply after `armed` and close the client's socket. */
async function dropOnceProxy(target: URL) {
  const state = { armed: false };
  const server = createServer((client: Socket) => {
    const upstream = connect(Number(target.port), target.hostname);
    client.on('data', (d) => upstream.write(d));
    upstream.on('data', (d) => {
      if (state.armed) {
        state.armed = false;
        client.destroy(); // the reply is lost with the connection
        upstream.destroy();
        return;
      }
      client.write(d);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => {});
    upstream.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { state, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let direct: Redis;
beforeAll(async () => {
  direct = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true });
  await direct.connect();
});
afterAll(() => direct.disconnect());

describe('a lost reply never spends a second unit', () => {
  it('one take whose connection drops before its reply spends at most one unit', async () => {
    const proxy = await dropOnceProxy(new URL(redisUrl()));
    // The README's client.
    const client = new Redis({
      host: '127.0.0.1',
      port: proxy.port,
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      lazyConnect: true,
    });
    await client.connect();
    try {
      const prefix = uniquePrefix('resend');
      const store = redisStore({ client, prefix }); // commandTimeoutMs: 100 (the default)
      const limit = { algorithm: 'gcra', limit: 10, windowMs: 600_000 } as const;
      await store.take('k', limit, 1); // loads the script: 9 left
      proxy.state.armed = true;
      const outcome = await store.take('k', limit, 1).then(
        (d) => ({ decision: d }),
        (e: unknown) => ({ error: e }),
      );
      // What is left on Redis, read directly: one unit for this call at most (8 or 9), whatever
      // the caller was told.
      const check = redisStore({ client: direct, prefix });
      const left = (await check.take('k', limit, 1)).remaining + 1;
      // With ioredis's default (re-send on): 7 left, and the caller told `remaining: 7`, no error.
      expect(left).toBeGreaterThanOrEqual(8);
      // The caller learns what happened: a typed store error, or a decision that spent one unit.
      if ('error' in outcome) expect((outcome.error as { code?: string }).code).toMatch(/^HEADWAY_STORE_/);
      else expect(outcome.decision.remaining).toBe(left - 1);
    } finally {
      client.disconnect();
      await proxy.close();
    }
  });
});

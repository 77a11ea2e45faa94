/**
 * The README's "When Redis fails": "a connection or command error rejects at once with
 * `StoreError` (`HEADWAY_STORE_ERROR`, the client's error as `cause`)", and with the README's
 * client (`autoResendUnfulfilledCommands: false`) a call whose reply was lost with its connection
 * "gets a `StoreError` instead". Here Redis closes the store's connection (`CLIENT KILL`) while a
 * take waits for its reply (held by `CLIENT PAUSE … WRITE`, which lets `CLIENT KILL` through).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStore } from '../../src/redis/index.js';
import type { StoreLimit } from '../../src/stores/store.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';

// This file pauses Redis and kills its connections, so it runs its own server, never REDIS_URL's.
let server: RedisServer;
let admin: Redis;

beforeAll(async () => {
  server = await startRedisServer();
  admin = new Redis(server.url, { lazyConnect: true });
  await admin.connect();
}, 15_000);
afterAll(async () => {
  admin.disconnect();
  await server.stop();
});

describe('Redis closes the store’s connection while a take waits for its reply', () => {
  it('the take rejects with StoreError (a connection error), not a StoreTimeoutError after commandTimeoutMs', async () => {
    // The README's client.
    const client = new Redis(server.url, {
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      lazyConnect: true,
    });
    client.on('error', () => undefined);
    await client.connect();
    try {
      const store = redisStore({ client, prefix: 'killed', commandTimeoutMs: 2000 });
      const limit: StoreLimit = { algorithm: 'token-bucket', limit: 10, windowMs: 1000 };
      await store.take('k', limit, 1); // the script is loaded
      const id = String(await client.client('ID'));
      await admin.call('CLIENT', 'PAUSE', '10000', 'WRITE'); // scripts wait; CLIENT KILL does not
      const outcome = store.take('k', limit, 1).then(
        () => 'decided',
        (error: unknown) => (error as { code?: string }).code,
      );
      // The take's EVALSHA is on its way (sent on the next turn): then the connection is closed.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await admin.call('CLIENT', 'KILL', 'ID', id)).toBe(1);
      const code = await outcome;
      await admin.call('CLIENT', 'UNPAUSE');
      expect(code).toBe('HEADWAY_STORE_ERROR');
    } finally {
      client.disconnect();
    }
  });
});

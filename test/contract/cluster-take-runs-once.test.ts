/**
 * On a Redis Cluster a take runs at most once, and never after its caller gave up, with the
 * client the README gives for a Cluster: `enableOfflineQueue: false`, `retryDelayOnFailover: 0`
 * and `redisOptions: { autoResendUnfulfilledCommands: false }`.
 *
 * An ioredis `Cluster` keeps its own retry loop: by default a command whose node connection
 * closed, or could not be used, is sent again `retryDelayOnFailover` (100 ms) later, up to
 * `maxRedirections` (16) times — a batch's `EVALSHA` whose reply was lost ran twice, and a take
 * made while its master was unreachable ran when the master was back, after its caller got
 * `StoreTimeoutError`. `retryDelayOnFailover: 0` turns that loop off.
 */
import { connect, createServer, type Socket } from 'node:net';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RateLimitStore, redisStore } from '../../src/redis/index.js';
import { uniquePrefix } from '../support/redis.js';
import { type RedisCluster, startRedisCluster } from '../support/redis-cluster.js';

/**
 * A TCP proxy to one node. `armed`: the reply to the next `EVALSHA` it forwards is dropped and the
 * client's socket closed (Redis did run the script; the reply is lost with the connection).
 * `down`: every connection is closed at once (the node is unreachable).
 */
async function flakyProxy(port: number) {
  const state = { armed: false, down: false };
  const sockets = new Set<Socket>();
  const server = createServer((client: Socket) => {
    if (state.down) {
      client.destroy();
      return;
    }
    sockets.add(client);
    const upstream = connect(port, '127.0.0.1');
    let dropNext = false;
    client.on('data', (d) => {
      if (state.armed && d.toString('latin1').toLowerCase().includes('evalsha')) {
        state.armed = false;
        dropNext = true;
      }
      upstream.write(d);
    });
    upstream.on('data', (d) => {
      if (dropNext) {
        dropNext = false;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(d);
    });
    client.on('close', () => {
      sockets.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => client.destroy());
    client.on('error', () => {});
    upstream.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    state,
    port: (server.address() as { port: number }).port,
    goDown() {
      state.down = true;
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let cluster: RedisCluster;
let direct: Cluster;

async function ready(c: Cluster): Promise<Cluster> {
  c.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    c.once('ready', resolve);
    c.once('error', reject);
  });
  return c;
}

beforeAll(async () => {
  cluster = await startRedisCluster(3);
  direct = await ready(new Cluster([...cluster.startupNodes], { enableOfflineQueue: false }));
}, 60_000);

afterAll(async () => {
  direct?.disconnect();
  await cluster?.stop();
});

/**
 * The README's client on a Cluster, `key`'s master reached through a {@link flakyProxy}; a store
 * on it (default `commandTimeoutMs`: 100) and a store that reads the same keys directly.
 */
async function throughProxy(key: string) {
  const slot = Number(await direct.cluster('KEYSLOT', `{${key}}`));
  const master = await cluster.masterOf(slot);
  const proxy = await flakyProxy(master.port);
  const client = await ready(
    new Cluster([...cluster.startupNodes], {
      enableOfflineQueue: false,
      retryDelayOnFailover: 0,
      redisOptions: { autoResendUnfulfilledCommands: false },
      natMap: { [`127.0.0.1:${master.port}`]: { host: '127.0.0.1', port: proxy.port } },
    }),
  );
  const prefix = uniquePrefix('cluster-once');
  const store = redisStore({ client, prefix });
  const check = redisStore({ client: direct, prefix, commandTimeoutMs: 2_000 });
  const close = async () => {
    client.disconnect();
    await proxy.close();
  };
  return { proxy, store, check, close };
}

const limit = { algorithm: 'gcra', limit: 10, windowMs: 600_000 } as const;

/** Units left on `key`, read with one more take (which spends one). */
async function left(check: RateLimitStore, key: string): Promise<number> {
  return (await check.take(key, limit, 1)).remaining + 1;
}

/** Lets whatever ioredis still does with a command happen (its redirections: 16 × 100 ms at most). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2_000));

describe('a take on a Redis Cluster runs at most once', () => {
  it('one take whose connection drops before its reply spends at most one unit', async () => {
    const { proxy, store, check, close } = await throughProxy('k');
    try {
      await store.take('k', limit, 1); // loads the script: 9 left
      proxy.state.armed = true;
      const outcome = await store.take('k', limit, 1).then(
        (d) => ({ decision: d }),
        (e: unknown) => ({ error: e }),
      );
      expect(proxy.state.armed).toBe(false); // the reply was dropped
      await settle();
      const units = await left(check, 'k');
      // call, one decision (or a StoreTimeoutError), two units spent.
      expect(units).toBeGreaterThanOrEqual(8);
      if ('error' in outcome) expect((outcome.error as { code?: string }).code).toMatch(/^HEADWAY_STORE_/);
      else expect(outcome.decision.remaining).toBe(units - 1);
    } finally {
      await close();
    }
  }, 60_000);

  it('a take made while its master is unreachable is not run once the master is back', async () => {
    const { proxy, store, check, close } = await throughProxy('m');
    try {
      await store.take('m', limit, 1); // loads the script: 9 left
      proxy.goDown();
      const outcome = await store.take('m', limit, 1).then(
        (d) => ({ decision: d }),
        (e: unknown) => ({ error: e }),
      );
      // The caller gave up: Redis was unreachable for the whole of its commandTimeoutMs.
      expect(outcome).toMatchObject({ error: { code: expect.stringMatching(/^HEADWAY_STORE_/) } });
      proxy.state.down = false; // the master is reachable again
      await settle();
      // spent for a caller that had already been told the store failed.
      expect(await left(check, 'm')).toBe(9);
    } finally {
      await close();
    }
  }, 60_000);
});

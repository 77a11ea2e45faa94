/**
 * A private Redis Cluster for tests: `masters` masters, each with one replica, on free loopback
 * ports, made into one cluster by `redis-cli --cluster create`, stopped by pid. Nodes time out
 * after 1 s, so a killed master's replica takes over within a few seconds.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { type RedisServer, startRedisServer } from './redis-server.js';

const HOST = '127.0.0.1';
/** How long a node may be silent before the others fail it over. */
export const NODE_TIMEOUT_MS = 1000;

/** A running cluster. */
export interface RedisCluster {
  /** Every node (masters and replicas; roles change on failover). */
  readonly nodes: readonly RedisServer[];
  /** `{ host, port }` of every node, for ioredis's `Cluster`. */
  readonly startupNodes: readonly { host: string; port: number }[];
  /** The node that serves `slot` as master now. */
  masterOf(slot: number): Promise<RedisServer>;
  /** Waits until every live node reports `cluster_state:ok` and every live replica has synced, within `ms`. */
  waitUntilOk(ms?: number): Promise<void>;
  /** Stops every node and removes their files. */
  stop(): Promise<void>;
}

function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} exited with ${code}: ${output}`)),
    );
  });
}

async function ask<T>(port: number, call: (redis: Redis) => Promise<T>): Promise<T | undefined> {
  const redis = new Redis({
    host: HOST,
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 500,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await call(redis);
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}

/** Starts the cluster and waits until it serves every slot. */
export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'headway-cluster-'));
  const nodes: RedisServer[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters * 2; i++) {
      nodes.push(
        await startRedisServer(undefined, (port) => [
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          `nodes-${port}.conf`,
          '--cluster-node-timeout',
          String(NODE_TIMEOUT_MS),
          // Replicas sync at once: a replica that never synced is never promoted.
          '--repl-diskless-sync-delay',
          '0',
          '--dir',
          dir,
        ]),
      );
    }
    await run('redis-cli', [
      '--cluster',
      'create',
      ...nodes.map((node) => `${HOST}:${node.port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
  } catch (error) {
    await stop();
    throw error;
  }

  const masterOf = async (slot: number): Promise<RedisServer> => {
    for (const node of nodes) {
      const slots = (await ask(node.port, (redis) => redis.cluster('SLOTS'))) as
        | [number, number, [string, number, ...unknown[]], ...unknown[]][]
        | undefined;
      const range = slots?.find(([low, high]) => slot >= low && slot <= high);
      const port = range?.[2][1];
      const master = nodes.find((n) => n.port === port);
      if (master) return master;
    }
    throw new Error(`No node serves slot ${slot}`);
  };

  const waitUntilOk = async (ms = 20_000): Promise<void> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const infos = await Promise.all(
        nodes.map((node) =>
          ask(
            node.port,
            async (redis) => `${await redis.cluster('INFO')}\n${await redis.info('replication')}`,
          ),
        ),
      );
      const alive = infos.filter((info): info is string => typeof info === 'string');
      const ready = (info: string) =>
        info.includes('cluster_state:ok') &&
        (info.includes('role:master') || info.includes('master_link_status:up'));
      if (alive.length > 0 && alive.every(ready)) return;
      if (Date.now() > deadline)
        throw new Error(`Redis Cluster not ok within ${ms} ms:\n${alive.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  try {
    await waitUntilOk();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    nodes,
    startupNodes: nodes.map((node) => ({ host: HOST, port: node.port })),
    masterOf,
    waitUntilOk,
    stop,
  };
}

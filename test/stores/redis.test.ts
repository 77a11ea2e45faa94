import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { redisStore } from '../../src/redis/index.js';
import { redisUrl, uniquePrefix } from '../support/redis.js';
import { describeStoreContract, redisTime } from './store-contract.js';

let client: Redis;

beforeAll(async () => {
  client = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true });
  await client.connect();
});
afterAll(() => client.disconnect());

// Redis owns its clock (`TIME`), so this runs on real time, in the `contract` project. The contract
// is about decisions, not timeouts (test/redis/fault*.test.ts own those): the default 100 ms
// `commandTimeoutMs` failed a take once in a CI-like run on a machine loaded three times over.
describeStoreContract('redis', () => ({
  store: redisStore({ client, prefix: uniquePrefix('contract'), commandTimeoutMs: 2_000 }),
  time: redisTime(client),
}));

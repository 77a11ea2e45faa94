import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { redisStore } from '../../src/redis/index.js';
import { redisUrl, uniquePrefix } from '../support/redis.js';
import { describeStoreContract } from './store-contract.js';

let client: Redis;

beforeAll(async () => {
  client = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true });
  await client.connect();
});
afterAll(() => client.disconnect());

describeStoreContract('redis', () => redisStore({ client, prefix: uniquePrefix('contract') }));

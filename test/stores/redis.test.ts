import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { redisStore } from '../../src/redis/index.js';
import { uniquePrefix, useRedis } from '../support/redis.js';
import { describeStoreContract } from './store-contract.js';

const redis = useRedis();
let client: Redis;

beforeAll(async () => {
  client = new Redis(redis.url, { enableOfflineQueue: false, lazyConnect: true });
  await client.connect();
});
afterAll(() => client.disconnect());

describeStoreContract('redis', () => redisStore({ client, prefix: uniquePrefix('contract') }));

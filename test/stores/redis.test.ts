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

// Redis owns its clock (`TIME`), so this runs on real time, in the `contract` project.
describeStoreContract('redis', () => ({
  store: redisStore({ client, prefix: uniquePrefix('contract') }),
  time: redisTime(client),
}));

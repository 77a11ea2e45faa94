/**
 * Azure Cosmos DB refuses an over-budget request with 429 and "the x-ms-retry-after-ms header
 * indicating the amount of time, in milliseconds, that the user must wait before reattempting the
 * request" (https://learn.microsoft.com/en-us/rest/api/cosmos-db/common-cosmosdb-rest-response-headers,
 * https://learn.microsoft.com/en-us/rest/api/cosmos-db/http-status-codes-for-cosmosdb); the Azure
 * SDKs' throttling policy reads `retry-after-ms`, `x-ms-retry-after-ms` and `Retry-After`.
 * Headway reads only `retry-after-ms` and `Retry-After`: the Cosmos 429 reads as a bare 429, and
 * the client retries long before the server said it may.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';
import { read } from './helpers.js';

const COSMOS_429 = { 'x-ms-retry-after-ms': '1500', 'x-ms-request-charge': '0.38', 'x-ms-substatus': '3200' };

describe('Azure: x-ms-retry-after-ms', () => {
  it('is the retry delay of a Cosmos DB 429', () => {
    const signal = read(429, COSMOS_429);
    expect(signal.retryAfterMs).toBe(1_500);
  });

  it('holds the retry of a refused call for the 1.5 s the server asked', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30, 12));
    const { fetch: transport, seen } = fakeFetch(clock, (_seen, index) =>
      index === 0 ? { status: 429, headers: COSMOS_429 } : { status: 200 },
    );
    const fetch = createFetch({ clock, fetch: transport, random: () => 0.5 });
    const [result] = await runUntilSettled(clock, [fetch('http://127.0.0.1:7010/dbs/db/colls/c/docs')], 10);
    expect(result).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at).toBeGreaterThanOrEqual(1_500);
  });
});

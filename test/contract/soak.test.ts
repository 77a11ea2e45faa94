/**
 * The short soak: four client processes offer twice the limit to one server on Redis for 6 s.
 * Asserts the limiter's bound (admitted up to every second t ≤ burst + rate·t) and that every
 * request was answered. The heap and event-loop checks need a long quiet run: `npm run soak`.
 */
import { expect, it } from 'vitest';
import { runSoak } from '../soak/soak.js';
import { redisUrl } from '../support/redis.js';

it('four client processes at twice the limit: the bound holds, every request is answered', async () => {
  const result = await runSoak({ seconds: 6, rate: 200, burst: 20, clients: 4, redisUrl: redisUrl() });
  expect(result.failures).toEqual([]);
  expect(result.worstExcess.excess).toBeLessThanOrEqual(0);
  expect(result.sent).toBe(4 * 6 * 100);
  expect(result.server.refused).toBeGreaterThan(0); // twice the limit was offered: some were refused
  expect(result.server.admittedAt.length).toBeLessThanOrEqual(20 + 200 * 8); // 6 s + the server's 2 s
}, 60_000);

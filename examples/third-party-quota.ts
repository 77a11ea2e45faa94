/**
 * Stay under a third-party API's quota, per API key: each key is its own quota, with its own
 * bucket, gate and retry budget. Run: `node --import tsx examples/third-party-quota.ts`
 */
import { createFetch } from '../src/index.js';
import { startServer } from '../src/server/index.js';

// The "third party": 10 requests/s per API key, burst 5, GitHub-style X-RateLimit headers.
const api = await startServer({ rate: 10, burst: 5, headers: 'x-ratelimit', keyHeader: 'authorization' });

const fetch = createFetch({
  // The quota belongs to the token, not to the origin.
  key: (request) => request.headers.get('authorization') ?? request.url.origin,
  // Known tiers: the free token gets 10/s, burst 5 (what the provider documents).
  policyFor: (key) => (key.endsWith('free') ? { rate: 10, burst: 5 } : undefined),
  deadlineMs: 10_000,
});
fetch.onThrottle(({ key, waitMs }) => {
  if (waitMs > 150) console.log(`  waiting ${Math.round(waitMs)} ms for ${key.slice(-4)}`);
});

const started = performance.now();
const call = (token: string, i: number) =>
  fetch(`${api.url}/v1/things/${i}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
const statuses = await Promise.all([
  ...Array.from({ length: 25 }, (_, i) => call('token-free', i)),
  ...Array.from({ length: 25 }, (_, i) => call('token-paid', i)), // learned from the headers
]);
const seconds = ((performance.now() - started) / 1000).toFixed(2);
console.log(`50 calls on two keys in ${seconds} s; statuses: ${[...new Set(statuses)].join(', ')}`);
for (const s of fetch.stats())
  console.log(
    `  ${s.key.slice(-10)}: sent ${s.sent}, 429s ${s.rateLimited}, rate ${s.learned.rate} (${s.learned.source})`,
  );
console.log(`server refused: ${api.metrics().refused}`);
await api.close();

/**
 * A batch job: thousands of calls fired at once, paced by Headway, with the `batch` profile
 * (long Retry-After waits are waited out, more retries), a deadline per call and a progress log.
 * Run: `node --import tsx examples/batch-job.ts`
 */
import { createFetch, isHeadwayError } from '../src/index.js';
import { startServer } from '../src/server/index.js';

const api = await startServer({ rate: 200, burst: 20, headers: 'draft-6' });
const fetch = createFetch({ profile: 'batch', deadlineMs: 60_000 });
fetch.onRetry(({ attempt, status, delayMs }) =>
  console.log(`  retry after ${status} (attempt ${attempt}) in ${delayMs} ms`),
);

const items = Array.from({ length: 600 }, (_, i) => i);
const started = performance.now();
let done = 0;
const results = await Promise.allSettled(
  items.map(async (item) => {
    const res = await fetch(`${api.url}/jobs/${item}`, { method: 'PUT', body: JSON.stringify({ item }) });
    await res.arrayBuffer();
    if (++done % 200 === 0)
      console.log(`  ${done} done at ${((performance.now() - started) / 1000).toFixed(2)} s`);
    return res.status;
  }),
);
const seconds = (performance.now() - started) / 1000;
const failed = results.filter((r) => r.status === 'rejected');
for (const f of failed.slice(0, 3)) {
  const reason = (f as PromiseRejectedResult).reason;
  console.log('  failed:', isHeadwayError(reason) ? reason.code : reason);
}
const minimum = (items.length - 20) / 200;
console.log(
  `${items.length} calls in ${seconds.toFixed(2)} s (${(seconds / minimum).toFixed(2)} × the minimum ${minimum} s), ` +
    `${failed.length} failed, server refused ${api.metrics().refused}`,
);
console.log('learned:', fetch.stats()[0]?.learned);
await api.close();

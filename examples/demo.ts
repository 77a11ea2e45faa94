/**
 * `npm start`: both halves of the contract on loopback. The reference server limits to
 * 200 requests/s with a burst of 20 and says so in IETF RateLimit headers. The same batch of 600
 * GETs (16 workers) is sent with plain fetch + a naive retry loop, then with Headway learning the
 * limit from the headers. Nothing leaves 127.0.0.1.
 */
import { createFetch } from '../src/index.js';
import { startServer } from '../src/server/index.js';

const N = 600;
const RATE = 200;
const BURST = 20;
const WORKERS = 16;
const minimum = (N - BURST) / RATE;

/** Sends N GETs from WORKERS workers; returns seconds taken and failures. */
async function run(label: string, fetchOne: (url: string) => Promise<Response>) {
  const server = await startServer({ rate: RATE, burst: BURST, headers: 'ietf' });
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (next++ < N) {
        const res = await fetchOne(`${server.url}/items/${next}`).catch(() => undefined);
        if (res?.status !== 200) failures++;
        await res?.arrayBuffer();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const { allowed, refused } = server.metrics();
  await server.close();
  console.log(
    `${label.padEnd(28)} ${seconds.toFixed(2).padStart(6)} s  (${(seconds / minimum).toFixed(2)} × minimum)` +
      `  server: ${String(allowed).padStart(4)} allowed, ${String(refused).padStart(5)} refused (429)  failed calls: ${failures}`,
  );
}

/** What many hand-written clients do: retry a 429 after its Retry-After, each caller on its own. */
async function naiveRetry(url: string): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url);
    if (res.status !== 429 || attempt === 5) return res;
    await res.arrayBuffer();
    const wait = Number(res.headers.get('retry-after') ?? '1') * 1000;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

console.log(`Headway demo: ${N} GETs, ${WORKERS} workers, server limit ${RATE}/s burst ${BURST}.`);
console.log(`The fastest any client can finish is (${N} − ${BURST}) / ${RATE} = ${minimum.toFixed(2)} s.\n`);
await run('warm-up (not counted)', (url) => fetch(url)).catch(() => {});
console.log('');
await run('plain fetch, no retry', (url) => fetch(url));
await run('plain fetch + retry loop', naiveRetry);
await run('Headway, unconfigured', createFetch());
await run('Headway, rate: 200, burst: 20', createFetch({ rate: RATE, burst: BURST }));
console.log('\nHeadway learned the limit from the RateLimit headers, paced itself under it, and never');
console.log('needed the 429s that the other clients turned into failures or 1-second waits.');

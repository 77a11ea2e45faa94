/**
 * One soak client process: offers `SOAK_CLIENT_RATE` requests per second to `SOAK_URL`, open loop
 * (each on its own schedule, whatever the answers), for `SOAK_SECONDS`; then waits for every answer
 * and prints one JSON line (see {@link ClientReport}).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** What a client process reports. */
export interface ClientReport {
  sent: number;
  statuses: Record<string, number>;
  errors: number;
  maxStallMs: number;
}

const url = process.env.SOAK_URL!;
const rate = Number(process.env.SOAK_CLIENT_RATE);
const seconds = Number(process.env.SOAK_SECONDS);
const warmUpMs = Number(process.env.SOAK_WARM_UP_MS);
const statuses: Record<string, number> = {};
let errors = 0;
const pending: Promise<void>[] = [];
const loop = monitorEventLoopDelay({ resolution: 10 });
// Stalls count after the warm-up, as the server's do: the first second holds one-time costs (Node
// loads its built-in fetch and compiles its HTTP parser on first use: 25-43 ms per client here).
setTimeout(() => loop.enable(), warmUpMs);
const start = performance.now();
for (let i = 0; ; i++) {
  const due = (i * 1000) / rate;
  if (due >= seconds * 1000) break;
  const wait = due - (performance.now() - start);
  if (wait > 0) await sleep(wait);
  pending.push(
    fetch(url, { headers: { 'x-soak-key': 'shared' } }).then(
      async (response) => {
        await response.arrayBuffer();
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      },
      () => {
        errors++;
      },
    ),
  );
}
await Promise.all(pending);
loop.disable();
const report: ClientReport = { sent: pending.length, statuses, errors, maxStallMs: loop.max / 1e6 };
console.log(JSON.stringify(report));

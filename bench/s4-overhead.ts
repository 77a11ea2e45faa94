/**
 * S4 (overhead): no limit (the server's rate is 10⁹/s), no latency, 20,000 GETs at concurrency 32.
 * Each client's requests/s is divided by that of the raw transport it wraps, measured in the same
 * run and alternated A B B A (each of the four a half: n / 2 GETs) so drift hurts neither, the
 * ratio taken within each rep (its halves run back to back) and its median over reps, every pair
 * once per rep: Headway `createFetch()` over the global fetch,
 * `createFetch({ fetch: undiciFetch })` over undici's fetch, `headwayInterceptor()` composed onto an Agent
 * under undici `request`, ky and p-retry over the global fetch,
 * undici's RetryAgent over undici `request`. The server is in-process, so it shares the two cores.
 *
 * got is left out (it wraps `node:http`, not one of these transports); bottleneck and p-queue are
 * set to a limit, and S4 has none.
 */
import {
  type ClientSpec,
  headwayInterceptorClient,
  headwayLearning,
  headwayUndici,
  kyClient,
  plainFetch,
  pRetryClient,
  retryAgentClient,
  undiciFetchRaw,
  undiciRequestRaw,
} from './lib/clients.js';
import { runClient, warmUp } from './lib/http-run.js';
import type { Report } from './lib/report.js';
import { fixed, int, median } from './lib/stats.js';

interface Pair {
  client: ClientSpec;
  raw: ClientSpec;
}

export const s4Pairs: readonly Pair[] = [
  { client: headwayLearning, raw: plainFetch },
  { client: headwayUndici, raw: undiciFetchRaw },
  { client: headwayInterceptorClient, raw: undiciRequestRaw },
  { client: kyClient, raw: plainFetch },
  { client: pRetryClient, raw: plainFetch },
  { client: retryAgentClient, raw: undiciRequestRaw },
];

export interface S4Options {
  n: number;
  concurrency: number;
  reps: number;
  pairs: readonly Pair[];
}

/** Requests/s of one half (n / 2 GETs). */
async function rps(spec: ClientSpec, o: S4Options): Promise<number> {
  const n = Math.round(o.n / 2);
  const r = await runClient(spec, {
    n,
    workers: o.concurrency,
    capMs: 120_000,
    server: { rate: 1e9, burst: 1e9 },
    known: { rate: 1e9, burst: 1e9 },
    stoppable: false,
  });
  if (r.failed > 0 || r.timedOut) throw new Error(`S4: ${spec.label} failed ${r.failed} calls`);
  return (n * 1000) / r.wallMs;
}

export async function runS4(report: Report, o: S4Options): Promise<void> {
  const specs = [...new Set(o.pairs.flatMap((p) => [p.client, p.raw]))];
  await warmUp(specs, 500);
  const runs = o.pairs.map(() => ({ ours: [] as number[], raw: [] as number[], ratios: [] as number[] }));
  // Each rep runs every pair once, A B B A, each half n / 2 GETs (the raw transport first and
  // last), so a pair's reps are spread over the whole scenario, and each rep's ratio is taken
  // between halves run back to back.
  for (let rep = 0; rep < o.reps; rep++)
    for (const [i, pair] of o.pairs.entries()) {
      const rawFirst = await rps(pair.raw, o);
      const oursFirst = await rps(pair.client, o);
      const oursSecond = await rps(pair.client, o);
      const rawSecond = await rps(pair.raw, o);
      const run = runs[i]!;
      run.ours.push(oursFirst, oursSecond);
      run.raw.push(rawFirst, rawSecond);
      run.ratios.push((oursFirst + oursSecond) / (rawFirst + rawSecond));
    }
  const rows: string[][] = [];
  for (const [i, pair] of o.pairs.entries()) {
    const { ours, raw, ratios } = runs[i]!;
    const ratio = median(ratios);
    process.stderr.write(
      `  S4 ${pair.client.label.padEnd(30)} ${int(median(ours))} req/s vs ${pair.raw.label} ${int(median(raw))} req/s = ${fixed(ratio, 3)} (reps ${ratios.map((r) => fixed(r, 3)).join(', ')})\n`,
    );
    rows.push([
      pair.client.headway ? `**${pair.client.label}**` : pair.client.label,
      pair.raw.label,
      int(median(ours)),
      int(median(raw)),
      `${fixed(ratio, 3)}×`,
      `${fixed(Math.min(...ratios), 3)}–${fixed(Math.max(...ratios), 3)}`,
    ]);
    if (pair.client.headway)
      report.verdict({
        scenario: 'S4',
        row: `S4 overhead, ${pair.client.label} ÷ ${pair.raw.label}`,
        headway: `${fixed(ratio, 3)}× (${int(median(ours))} req/s)`,
        bestPeer: '',
        target: '≥ 0.95× the raw transport',
        pass: ratio >= 0.95,
        ...(ratio >= 0.95 ? {} : { note: `${fixed(ratio, 3)}×` }),
      });
  }
  // Fill in the best peer (the highest ratio among the peers) now that every pair has run.
  const peerRows = rows.filter((r) => !r[0]!.startsWith('**'));
  const best = peerRows.sort((a, b) => Number.parseFloat(b[4]!) - Number.parseFloat(a[4]!))[0];
  for (const v of report.verdicts)
    if (v.scenario === 'S4' && v.bestPeer === '') v.bestPeer = best ? `${best[0]}: ${best[4]}` : '—';
  report.table(
    `S4: overhead, ${int(o.n)} GETs at concurrency ${o.concurrency}, no limit, no latency`,
    `Requests/s of each client and of the raw transport it wraps, measured A B B A (${int(o.n / 2)} GETs each) in each of ${o.reps} rep(s), every pair once per rep (so a pair's reps spread over the scenario). client ÷ raw = the median over reps of each rep's ratio (its two client halves ÷ its two raw halves, run back to back); req/s = medians of the halves. The reference server runs in the same process.`,
    ['client', 'raw transport', 'client req/s', 'raw req/s', 'client ÷ raw', 'range over reps'],
    rows,
  );
}

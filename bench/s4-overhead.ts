/**
 * S4 (overhead): no limit (the server's rate is 10⁹/s), no latency, 20,000 GETs at concurrency 32.
 * Each client's requests/s is divided by that of the raw transport it wraps, measured in the same
 * run and alternated A B B A (each of the four a half: n / 2 GETs) so drift hurts neither, the
 * ratio taken within each rep (its halves run back to back) and its median over reps, every pair
 * once per rep: Headway `createFetch()` over the global fetch,
 * `createFetch({ fetch: undiciFetch })` over undici's fetch, `headwayInterceptor()` composed onto an Agent
 * under undici `request`, ky and p-retry over the global fetch,
 * undici's RetryAgent over undici `request`, and for reference the floor of an interceptor (the
 * key, a map lookup and the header read only: `lib/floor-interceptor.ts`) over undici `request`.
 * The server is in-process, so it shares the two cores; it lives for the whole process, and each
 * rep makes its two clients afresh (see {@link measureS4}).
 *
 * The reps are spread over `processes` child processes (bench/s4-child.ts), each with its own
 * server: one process's draw moves every client's cost. The same code, rotated against raw
 * `undici.request` in three processes one after another (Node 26, 2026-12-05), cost 8.2, 4.1 and
 * 3.3 µs of CPU per request more than raw, and the floor interceptor 1.5, 6.9 and 1.4 µs: a
 * verdict from one process is a verdict on that draw.
 *
 * got is left out (it wraps `node:http`, not one of these transports); bottleneck and p-queue are
 * set to a limit, and S4 has none.
 */

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startServer } from 'headway/server';
import {
  type BenchClient,
  type ClientSpec,
  floorInterceptorClient,
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
import type { Report } from './lib/report.js';
import { fixed, int, median } from './lib/stats.js';

const execFileAsync = promisify(execFile);

export interface Pair {
  client: ClientSpec;
  raw: ClientSpec;
  /** A reference row, not a peer: what the least interceptor costs on this host, in this run. */
  reference?: true;
}

export const s4Pairs: readonly Pair[] = [
  { client: headwayLearning, raw: plainFetch },
  { client: headwayUndici, raw: undiciFetchRaw },
  { client: headwayInterceptorClient, raw: undiciRequestRaw },
  { client: kyClient, raw: plainFetch },
  { client: pRetryClient, raw: plainFetch },
  { client: retryAgentClient, raw: undiciRequestRaw },
  { client: floorInterceptorClient, raw: undiciRequestRaw, reference: true },
];

export interface S4Options {
  n: number;
  concurrency: number;
  /** Reps in all, spread over the processes (each runs `ceil(reps / processes)`). */
  reps: number;
  pairs: readonly Pair[];
  /** Child processes the reps are spread over; 1 runs them in this process. */
  processes: number;
}

/** One half: requests/s, and the process's CPU µs per request (client and in-process server). */
interface Half {
  rps: number;
  cpuUs: number;
}

/** One half: `n` GETs at `concurrency` through an already warm client; throws if one fails. */
async function runHalf(
  client: BenchClient,
  url: string,
  n: number,
  concurrency: number,
  label: string,
): Promise<Half> {
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      if (!(await client.get(url)).ok) failed++;
    }
  };
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  if (failed > 0) throw new Error(`S4: ${label} failed ${failed} calls`);
  return { rps: (n * 1000) / ms, cpuUs: (used.user + used.system) / n };
}

/** One empty {@link PairRuns} per pair, to be filled rep by rep. */
const emptyRuns = (pairs: readonly Pair[]): PairRuns[] =>
  pairs.map(() => ({ ours: [], raw: [], ratios: [], cpuRatios: [] }));

/** GETs each client of each pair runs once per process before its reps (see {@link measureS4}). */
const PROCESS_WARM_UP = 10_000;

/**
 * Every rep of every pair, in this process, against a reference server of its own: the pairs'
 * halves and per-rep ratios, in the order of `o.pairs`. `firstRep` numbers the reps on from an
 * earlier process's, so the order clients are made in still alternates over all of them.
 */
export async function measureS4(o: Omit<S4Options, 'processes'>, firstRep = 0): Promise<PairRuns[]> {
  const server = await startServer({ port: 0, rate: 1e9, burst: 1e9 });
  const url = `${server.url}/items`;
  const half = Math.round(o.n / 2);
  const make = (spec: ClientSpec) => spec.make({ known: { rate: 1e9, burst: 1e9 } });
  try {
    // The process first: each pair's two clients run PROCESS_WARM_UP GETs each, unmeasured, so that
    // no rep's halves run while V8 is still compiling the code under them (in a fresh process,
    // Headway's interceptor ran 4,700 GETs/s over its first 2,000, 11,000–12,000 over the next
    // 12,000, and 17,000–18,700 after 40,000).
    for (const pair of o.pairs) {
      const clients = [pair.raw, pair.client].map(make);
      try {
        for (const client of clients) await runHalf(client, url, PROCESS_WARM_UP, o.concurrency, 'warm-up');
      } finally {
        for (const client of clients) await client.close();
      }
    }
    const runs = emptyRuns(o.pairs);
    // Each rep runs every pair once, A B B A (the raw transport first and last), so a pair's reps
    // are spread over the whole scenario, and each rep's ratio is taken between halves run back to back.
    for (let rep = firstRep; rep < firstRep + o.reps; rep++)
      for (const [i, pair] of o.pairs.entries()) {
        // Two fresh clients per rep, made raw first in even reps and client first in odd ones: the
        // order clients are made in can move their ratio in one process (two `undici.request`
        // clients alike read 1.03–1.06× in three runs when one was the first client the process
        // made, 1.01× in two when neither was), so no pair keeps one order. Each is warmed (JIT, its sockets open, anything it learns learned) before its first half:
        // a half measures a client's steady state, not a pool's connects. (A forced collection
        // before each half was tried and left out: the half after it ran at half speed.)
        const order = rep % 2 === 0 ? [pair.raw, pair.client] : [pair.client, pair.raw];
        const [first, second] = order.map(make) as [BenchClient, BenchClient];
        const [raw, ours] = rep % 2 === 0 ? [first, second] : [second, first];
        try {
          for (const client of [first, second]) await runHalf(client, url, 2000, o.concurrency, 'warm-up');
          const rawFirst = await runHalf(raw, url, half, o.concurrency, pair.raw.label);
          const oursFirst = await runHalf(ours, url, half, o.concurrency, pair.client.label);
          const oursSecond = await runHalf(ours, url, half, o.concurrency, pair.client.label);
          const rawSecond = await runHalf(raw, url, half, o.concurrency, pair.raw.label);
          const run = runs[i]!;
          run.ours.push(oursFirst, oursSecond);
          run.raw.push(rawFirst, rawSecond);
          run.ratios.push((oursFirst.rps + oursSecond.rps) / (rawFirst.rps + rawSecond.rps));
          run.cpuRatios.push((rawFirst.cpuUs + rawSecond.cpuUs) / (oursFirst.cpuUs + oursSecond.cpuUs));
        } finally {
          await first.close();
          await second.close();
        }
      }
    return runs;
  } finally {
    await server.close();
  }
}

/** S4: every pair's reps (in `o.processes` child processes, or here with 1), tabulated with their verdicts. */
export async function runS4(report: Report, o: S4Options): Promise<void> {
  if (o.processes <= 1) {
    tabulate(report, o, await measureS4(o));
    return;
  }
  const perProcess = Math.ceil(o.reps / o.processes);
  const runs = emptyRuns(o.pairs);
  for (let p = 0; p < o.processes; p++) {
    const { stdout } = await execFileAsync(
      process.execPath,
      [
        '--import',
        'tsx',
        'bench/s4-child.ts',
        o.pairs.map((pair) => s4Pairs.indexOf(pair)).join(','),
        String(o.n),
        String(o.concurrency),
        String(perProcess),
        String(p * perProcess),
      ],
      { maxBuffer: 1 << 22, timeout: 900_000 },
    );
    const part = JSON.parse(stdout.trim().split('\n').at(-1)!) as PairRuns[];
    for (const [i, run] of part.entries()) {
      const all = runs[i]!;
      all.ours.push(...run.ours);
      all.raw.push(...run.raw);
      all.ratios.push(...run.ratios);
      all.cpuRatios.push(...run.cpuRatios);
    }
  }
  tabulate(report, { ...o, reps: perProcess * o.processes }, runs);
}

/** A pair's halves and, per rep, client ÷ raw in requests/s and raw ÷ client in CPU per request. */
export interface PairRuns {
  ours: Half[];
  raw: Half[];
  ratios: number[];
  cpuRatios: number[];
}

/** S4's table and verdicts from each pair's halves and per-rep ratios. */
function tabulate(report: Report, o: S4Options, runs: readonly PairRuns[]): void {
  const rows: string[][] = [];
  for (const [i, pair] of o.pairs.entries()) {
    const { ours, raw, ratios, cpuRatios } = runs[i]!;
    const ratio = median(ratios);
    const oursRps = median(ours.map((h) => h.rps));
    const rawRps = median(raw.map((h) => h.rps));
    const cpu = `${fixed(median(raw.map((h) => h.cpuUs)), 1)} → ${fixed(median(ours.map((h) => h.cpuUs)), 1)}`;
    process.stderr.write(
      `  S4 ${pair.client.label.padEnd(30)} ${int(oursRps)} req/s vs ${pair.raw.label} ${int(rawRps)} req/s = ${fixed(ratio, 3)} (reps ${ratios.map((r) => fixed(r, 3)).join(', ')}); CPU µs/req ${cpu}, raw ÷ client ${fixed(median(cpuRatios), 3)}\n`,
    );
    rows.push([
      pair.client.headway ? `**${pair.client.label}**` : pair.client.label,
      pair.raw.label,
      int(oursRps),
      int(rawRps),
      `${fixed(ratio, 3)}×`,
      `${fixed(Math.min(...ratios), 3)}–${fixed(Math.max(...ratios), 3)}`,
      cpu,
      `${fixed(median(cpuRatios), 3)}×`,
    ]);
    if (pair.client.headway)
      report.verdict({
        scenario: 'S4',
        row: `S4 overhead, ${pair.client.label} ÷ ${pair.raw.label}`,
        headway: `${fixed(ratio, 3)}× (${int(oursRps)} req/s; CPU per request ${fixed(median(cpuRatios), 3)}×)`,
        bestPeer: '',
        target: '≥ 0.95× the raw transport',
        pass: ratio >= 0.95,
        ...(ratio >= 0.95 ? {} : { note: `${fixed(ratio, 3)}×` }),
      });
  }
  // Fill in the best peer (the highest ratio among the peers) now that every pair has run.
  const peerRows = rows.filter((r, i) => !r[0]!.startsWith('**') && !o.pairs[i]!.reference);
  const best = peerRows.sort((a, b) => Number.parseFloat(b[4]!) - Number.parseFloat(a[4]!))[0];
  for (const v of report.verdicts)
    if (v.scenario === 'S4' && v.bestPeer === '') v.bestPeer = best ? `${best[0]}: ${best[4]}` : '—';
  report.table(
    `S4: overhead, ${int(o.n)} GETs at concurrency ${o.concurrency}, no limit, no latency`,
    `Requests/s of each client and of the raw transport it wraps, measured A B B A (${int(o.n / 2)} GETs each) in each of ${o.reps} rep(s), every pair once per rep, the reps spread over ${o.processes} process(es) (one process's draw moves every client's cost by several µs; see bench/s4-overhead.ts). client ÷ raw = the median over reps of each rep's ratio (its two client halves ÷ its two raw halves, run back to back); req/s = medians of the halves. One reference server in each process, for all of its reps; each rep makes its pair's two clients afresh, the raw transport first in even reps and the client first in odd ones (the order clients are made in can move their ratio by a few per cent), each warmed by 2,000 GETs before its first half. CPU = the process's user + system CPU per request (client and server; other processes' load does not enter it), raw → client, and raw ÷ client the median of each rep's ratio: the requests/s ratio a process with a core to itself would see.`,
    [
      'client',
      'raw transport',
      'client req/s',
      'raw req/s',
      'client ÷ raw',
      'range over reps',
      'CPU µs/req raw → client',
      'CPU raw ÷ client',
    ],
    rows,
  );
}

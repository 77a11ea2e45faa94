/**
 * S6 (server kinds): S1's batch against every kind of server — `headway serve` with each of its
 * five algorithms in each header dialect that states counters, two limiters from other projects
 * as real HTTP servers (express-rate-limit 8 on express 5, @fastify/rate-limit on fastify 5), a
 * server with two windows, and servers that only send `Retry-After` (the reference token bucket
 * with `none`; a proxy-like limiter answering a bare 429 + `Retry-After: 1` that counts refused
 * requests too). Each kind's theoretical minimum is defined with it in `lib/server-kinds.ts`.
 *
 * Headway runs unconfigured (learning) everywhere, and configured as a bucket (the kind's `known`:
 * its own bucket, or the bucket reading of its window) against windows; ky, given retries enough
 * to finish, runs beside them. S1 keeps its peers against one bucket; S6 is its server axis, kept
 * as its own scenario so that S1's figures stay comparable from run to run.
 */

import type { AlgorithmName, HeaderDialect } from 'headway/server';
import { type ClientSpec, headwayConfigured, headwayLearning, kyPatient } from './lib/clients.js';
import { type RunResult, runClient, warmUp } from './lib/http-run.js';
import type { Report } from './lib/report.js';
import {
  countingProxyKind,
  expressRateLimitKind,
  fastifyRateLimitKind,
  headwayKind,
  type ServerKind,
  twoWindowKind,
} from './lib/server-kinds.js';
import { fixed, int, median, pct, rotate, sleep } from './lib/stats.js';
import { learningTargets } from './lib/targets.js';

const algorithms: readonly AlgorithmName[] = [
  'token-bucket',
  'gcra',
  'fixed-window',
  'sliding-window-counter',
  'sliding-log',
];
const counterDialects: readonly HeaderDialect[] = ['ietf', 'draft-7', 'draft-6', 'x-ratelimit'];

/** Which cells a run measures. */
export type S6Profile = 'full' | 'default' | 'smoke';

interface Cell {
  kind: ServerKind;
  spec: ClientSpec;
  /** `floorMs`: the no-probe floor of that run, for kinds that state their reset only in epoch seconds. */
  runs: { result: RunResult; minMs: number; floorMs: number | null }[];
}

/** The cells of `profile`: every kind × client in `full`, a representative subset by default. */
export function s6Cells(profile: S6Profile): Cell[] {
  const cells: Cell[] = [];
  const add = (kind: ServerKind, specs: readonly ClientSpec[]) => {
    for (const spec of specs) cells.push({ kind, spec, runs: [] });
  };
  if (profile === 'smoke') {
    add(expressRateLimitKind(150), [headwayLearning]);
    return cells;
  }
  const full = profile === 'full';
  // Default: token bucket is left to S1 (every dialect, same server, same run); one dialect per
  // algorithm plus fixed-window in x-ratelimit (the issue's cells); configured on fixed-window.
  for (const algorithm of full ? algorithms : algorithms.filter((a) => a !== 'token-bucket'))
    for (const dialect of full ? counterDialects : (['ietf', 'x-ratelimit'] as const)) {
      if (!full && dialect === 'x-ratelimit' && algorithm !== 'fixed-window') continue;
      const kind = headwayKind(algorithm, dialect);
      const specs: ClientSpec[] = [headwayLearning];
      // Configured against windows (against buckets S1 measures it); ky once per algorithm.
      if (kind.window && (full || (dialect === 'ietf' && algorithm === 'fixed-window')))
        specs.push(headwayConfigured);
      // ky once per algorithm, and beside the sub-second window stated only in whole seconds.
      if ((full && dialect === 'ietf') || (algorithm === 'fixed-window' && dialect === 'x-ratelimit'))
        specs.push(kyPatient);
      add(kind, specs);
    }
  // The counterpart of fixed-window 100/500 ms in x-ratelimit: the same header shape over a 1 s
  // window, which a client cannot tell from it in the first window (README, Limits).
  add(headwayKind('fixed-window', 'x-ratelimit', { limit: 100, windowMs: 1000 }), [
    headwayLearning,
    kyPatient,
  ]);
  for (const kind of [expressRateLimitKind(), fastifyRateLimitKind()])
    add(kind, full ? [headwayLearning, headwayConfigured, kyPatient] : [headwayLearning, kyPatient]);
  const alone = full ? [headwayLearning, kyPatient] : [headwayLearning];
  add(twoWindowKind(), full ? [headwayLearning, headwayConfigured, kyPatient] : alone);
  add(headwayKind('token-bucket', 'none'), alone);
  add(countingProxyKind(), alone);
  return cells;
}

/** Waits for the next multiple of `periodMs` on the monotonic clock (+1 ms). */
async function toBoundary(periodMs: number): Promise<void> {
  await sleep(periodMs - (performance.now() % periodMs) + 1);
}

const HEADWAY_CAP_MS = 30_000;
const PEER_CAP_MS = 12_000;

function capOf(cell: Cell): number {
  const minMs = cell.kind.minimumMs(0);
  return cell.spec.headway ? Math.max(HEADWAY_CAP_MS, 6 * minMs) : Math.max(PEER_CAP_MS, 2.5 * minMs);
}

/** Runs S6 and adds its tables and verdicts to `report`. */
export async function runS6(
  report: Report,
  o: { reps: number; profile: S6Profile; kinds?: readonly string[] },
): Promise<void> {
  const only = o.kinds ?? [];
  const cells = s6Cells(o.profile).filter(
    (c) => only.length === 0 || only.some((k) => c.kind.id.includes(k)),
  );
  await warmUp([...new Set(cells.map((c) => c.spec))]);
  for (let rep = 0; rep < o.reps; rep++) {
    const order = rep % 2 === 0 ? rotate(cells, rep) : rotate(cells, rep).reverse();
    for (const cell of order) {
      const { kind, spec } = cell;
      const result = await runClient(spec, {
        n: kind.n,
        workers: kind.workers,
        capMs: capOf(cell),
        server: () => kind.start(),
        known: kind.known,
        ...(kind.alignMs ? { beforeStart: () => toBoundary(kind.alignMs!) } : {}),
      });
      const phaseMs = kind.alignMs ? result.startedAt % kind.alignMs : 0;
      const minMs = kind.minimumMs(phaseMs);
      const floorMs = kind.noProbeFloorMs?.(result.startedAt, Date.now() - performance.now()) ?? null;
      cell.runs.push({ result, minMs, floorMs });
      process.stderr.write(
        `  S6 rep ${rep + 1} ${kind.id.padEnd(34)} ${spec.label.padEnd(32)} ${fixed(result.wallMs / minMs, 3)}×${floorMs === null ? '' : ` (no-probe floor ${fixed(floorMs / minMs, 3)}×)`} 429s ${result.refused} failed ${result.failed + result.unfinished}${result.timedOut ? ' (capped)' : ''}\n`,
      );
    }
  }

  const summary = cells.map((cell) => {
    const m = (f: (r: RunResult, minMs: number) => number) =>
      median(cell.runs.map((x) => f(x.result, x.minMs)));
    return {
      cell,
      minMs: m((_, minMs) => minMs),
      ratio: m((r, minMs) => r.wallMs / minMs),
      floorRatio: cell.runs.some((x) => x.floorMs === null)
        ? null
        : median(cell.runs.map((x) => (x.floorMs as number) / x.minMs)),
      wallMs: m((r) => r.wallMs),
      refused: m((r) => r.refused),
      attempts: m((r) => r.allowed + r.refused),
      failed: m((r) => r.failed),
      unfinished: m((r) => r.unfinished),
      capped: cell.runs.some((x) => x.result.timedOut),
    };
  });
  type Row = (typeof summary)[number];

  const kinds = [...new Map(cells.map((c) => [c.kind.id, c.kind])).values()];
  report.table(
    'S6: server kinds and their minima',
    'The minimum is the wall time of an ideal client that knows the limit and sends each call the instant the server would admit it, with no latency (formulas in `bench/lib/server-kinds.ts`, checked against a greedy simulation of the real algorithms in `test/bench/server-kinds.test.ts`). ' +
      'φ = how far into its window the first request landed: `headway serve` aligns fixed and sliding-counter windows to multiples of W on its clock; S6 starts those runs at a boundary and takes φ from the real start (≈ 1 ms). ' +
      'The third-party limiters and the two-window server start a window at the first request (φ = 0). ' +
      'Sliding window counter: L pass at once in the first window; in the second (previous = L) the j-th needs e ≥ j·W/L, so L − 1 pass; from the third on (previous = L − 1) the j-th needs e ≥ (j − 1)·W/(L − 1); with M = N − L, M′ = M − (L − 1), q = ⌈M′/(L − 1)⌉, r = M′ − (q − 1)(L − 1). ' +
      '"configured as" = what Headway configured is told: a bucket server\'s own limit, or a window of L per W read as rate L/W, burst L/5.',
    ['server', 'headers', 'N', 'workers', 'minimum', 'configured as', 'target 429s ≤'],
    kinds.map((k) => [
      k.label,
      k.headers,
      int(k.n),
      String(k.workers),
      k.formula,
      `rate ${k.known.rate}, burst ${k.known.burst}`,
      int(k.maxRefused),
    ]),
  );
  report.table(
    `S6: server kinds, ${o.reps === 1 ? '1 rep' : `medians of ${o.reps} reps`}`,
    `"÷ min" = wall ÷ that run's minimum (above). "429s" and "attempts" are what the server saw; "failed" = calls that ended without a 2xx; "unfinished" = calls still waiting when the cap struck (Headway: max(${HEADWAY_CAP_MS / 1000} s, 6 × min); ky: max(${PEER_CAP_MS / 1000} s, 2.5 × min); such a run is marked ⏱ and its wall is the cap). "no-probe floor" (windows whose reset is stated only as a whole epoch second): the fastest a client can finish that never sends before a stated reset, for that run's phase of the window against the epoch second — (R0 − t0) + (⌈N/L⌉ − 2)·1 s, R0 = the first stated reset (README, Limits).`,
    [
      'server',
      'headers',
      'client',
      'min s',
      'wall s',
      '÷ min',
      'no-probe floor ÷ min',
      '429s',
      'attempts',
      'failed',
      'unfinished',
    ],
    summary.map((s) => [
      s.cell.kind.label,
      s.cell.kind.headers,
      s.cell.spec.headway ? `**${s.cell.spec.label}**` : s.cell.spec.label,
      fixed(s.minMs / 1000, 2),
      `${fixed(s.wallMs / 1000, 2)}${s.capped ? ' ⏱' : ''}`,
      `${fixed(s.ratio, 3)}×`,
      s.floorRatio === null ? '—' : `${fixed(s.floorRatio, 3)}×`,
      int(s.refused),
      int(s.attempts),
      int(s.failed),
      int(s.unfinished),
    ]),
  );

  const find = (kind: ServerKind, id: string) =>
    summary.find((s) => s.cell.kind.id === kind.id && s.cell.spec.id === id);
  const figures = (s: Row) =>
    `${fixed(s.ratio, 3)}×, ${int(s.refused)}×429, ${int(s.failed + s.unfinished)} failed`;
  const verdict = (
    s: Row,
    what: string,
    maxRatio: number,
    maxRefused: number,
    refusedText: string,
    ky?: Row,
    vsKy = false,
  ) => {
    const misses: string[] = [];
    if (!(s.ratio <= maxRatio))
      misses.push(
        `wall ${fixed(s.ratio, 3)}×${s.floorRatio === null ? '' : ` (no-probe floor ${fixed(s.floorRatio, 3)}×, README Limits)`}`,
      );
    if (!(s.refused <= maxRefused)) misses.push(`${int(s.refused)} 429s (${pct(s.refused / s.cell.kind.n)})`);
    if (s.failed + s.unfinished > 0) misses.push(`${int(s.failed + s.unfinished)} failed`);
    let target = `≤ ${maxRatio}× min, ${refusedText ? `≤ ${refusedText} 429s, ` : ''}0 failed`;
    if (ky && vsKy) {
      target += ', ≤ ky wall, < ky 429s';
      if (!(s.wallMs <= ky.wallMs)) misses.push(`slower than ky (${fixed(ky.ratio, 3)}×)`);
      if (!(s.refused < ky.refused)) misses.push(`${int(s.refused)} 429s ≥ ky's ${int(ky.refused)}`);
    }
    report.verdict({
      scenario: 'S6',
      row: `S6 ${what}, ${s.cell.kind.label} (${s.cell.kind.headers})`,
      headway: figures(s),
      bestPeer: ky ? `${ky.cell.spec.label}: ${figures(ky)}` : '—',
      target,
      pass: misses.length === 0,
      ...(misses.length ? { note: misses.join(', ') } : {}),
    });
  };

  const t = learningTargets;
  for (const kind of kinds) {
    const learned = find(kind, headwayLearning.id);
    const configured = find(kind, headwayConfigured.id);
    const ky = find(kind, kyPatient.id);
    if (learned) {
      if (kind.group === 'retry-after-only')
        verdict(
          learned,
          'unconfigured',
          t.retryAfterRatio,
          t.retryAfterRefusedShare * kind.n,
          pct(t.retryAfterRefusedShare, 0),
        );
      else
        verdict(
          learned,
          'unconfigured',
          t.learnedRatio,
          kind.maxRefused,
          `${int(kind.maxRefused)} (${kind.window ? 'a window' : 'the burst'})`,
          ky,
          kind.group === 'third-party',
        );
    }
    if (configured && kind.window && kind.group !== 'retry-after-only')
      verdict(
        configured,
        'configured as a bucket',
        t.configuredWindowRatio,
        Number.POSITIVE_INFINITY,
        '',
        ky,
      );
  }
}

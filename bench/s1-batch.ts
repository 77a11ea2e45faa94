/**
 * S1 (batch under quota) and S1b (the same batch fired at once): 1,000 GETs against the reference
 * server at 200 req/s with bursts of 20, in every header dialect. Wall time is compared with the
 * theoretical minimum (N − burst) / rate; 429s and attempts are what the server saw.
 *
 * Headway runs configured (`{ rate: 200, burst: 20 }`) and unconfigured (learning the limit) in
 * every dialect. The peers run on `ietf` only: bottleneck and p-queue are hand-set to the limit and
 * read no header; p-retry and the loops read none; got and undici's RetryAgent read only
 * Retry-After, which the reference server sends on every 429 in every dialect. ky also reads
 * RateLimit-Reset / X-RateLimit-Reset, but only when Retry-After is absent (never, here); it runs on
 * `none` (Retry-After alone) as well, to show that.
 */
import type { HeaderDialect } from 'headway/server';
import { allClients, type ClientSpec } from './lib/clients.js';
import { type RunResult, runClient, warmUp } from './lib/http-run.js';
import type { Report } from './lib/report.js';
import { fixed, int, median, pct, rotate } from './lib/stats.js';
import { learningTargets } from './lib/targets.js';

export const dialects: readonly HeaderDialect[] = ['ietf', 'draft-7', 'draft-6', 'x-ratelimit', 'none'];

export interface S1Options {
  n: number;
  reps: number;
  /** `16` for S1; `'all'` for S1b. */
  workers: number | 'all';
  dialects: readonly HeaderDialect[];
  clients: readonly ClientSpec[];
  capMs: number;
  /** Also run the dialect-sensitive peers (ky) on `none`. */
  peersOnNone: boolean;
}

export const S1_RATE = 200;
export const S1_BURST = 20;
const HEADWAY_CAP_MS = 30_000;

interface Cell {
  spec: ClientSpec;
  dialect: HeaderDialect;
  runs: RunResult[];
}

export function s1Cells(
  clients: readonly ClientSpec[],
  dialectList: readonly HeaderDialect[],
  peersOnNone: boolean,
): Cell[] {
  const cells: Cell[] = [];
  for (const dialect of dialectList)
    for (const spec of clients)
      if (
        spec.headway ||
        dialect === dialectList[0] ||
        (peersOnNone && spec.dialectSensitive && dialect === 'none')
      )
        cells.push({ spec, dialect, runs: [] });
  return cells;
}

/** Interleave Headway and peers so neither always runs first (or on a warmer machine). */
function interleave(cells: readonly Cell[]): Cell[] {
  const ours = cells.filter((c) => c.spec.headway);
  const theirs = cells.filter((c) => !c.spec.headway);
  const out: Cell[] = [];
  for (let i = 0; i < Math.max(ours.length, theirs.length); i++) {
    if (ours[i]) out.push(ours[i]!);
    if (theirs[i]) out.push(theirs[i]!);
  }
  return out;
}

export async function runS1(report: Report, name: 'S1' | 'S1b', o: S1Options): Promise<void> {
  const minMs = ((o.n - S1_BURST) / S1_RATE) * 1000;
  const cells = interleave(s1Cells(o.clients, o.dialects, o.peersOnNone));
  await warmUp(o.clients);
  for (let rep = 0; rep < o.reps; rep++) {
    const order = rep % 2 === 0 ? rotate(cells, rep) : rotate(cells, rep).reverse();
    for (const cell of order) {
      const result = await runClient(cell.spec, {
        n: o.n,
        workers: o.workers,
        // Peers that collapse into 1 s Retry-After waits are cut off at the cap; Headway is given
        // longer, so its own ratio is always measured.
        capMs: cell.spec.headway ? Math.max(o.capMs, HEADWAY_CAP_MS) : o.capMs,
        server: { rate: S1_RATE, burst: S1_BURST, headers: cell.dialect },
        known: { rate: S1_RATE, burst: S1_BURST },
      });
      cell.runs.push(result);
      process.stderr.write(
        `  ${name} rep ${rep + 1} ${cell.dialect.padEnd(11)} ${cell.spec.label.padEnd(34)} ${fixed(result.wallMs / minMs)}× 429s ${result.refused} failed ${result.failed + result.unfinished}${result.timedOut ? ' (capped)' : ''}\n`,
      );
    }
  }

  const summary = cells.map((cell) => {
    const m = (f: (r: RunResult) => number) => median(cell.runs.map(f));
    return {
      cell,
      ratio: m((r) => r.wallMs / minMs),
      wallMs: m((r) => r.wallMs),
      refused: m((r) => r.refused),
      attempts: m((r) => r.allowed + r.refused),
      failed: m((r) => r.failed + r.unfinished),
      gaveUp: m((r) => r.failed),
      unfinished: m((r) => r.unfinished),
      capped: cell.runs.some((r) => r.timedOut),
    };
  });
  const how = o.workers === 'all' ? `all ${o.n} calls fired at once` : `${o.workers} concurrent workers`;
  report.table(
    `${name}: ${o.n} GETs, ${how}, server ${S1_RATE} req/s burst ${S1_BURST}`,
    `Theoretical minimum (N − burst) / rate = ${fixed(minMs / 1000, 2)} s. Medians of ${o.reps} rep(s). ` +
      `"429s" and "attempts" are what the server saw; "failed" = calls that ended without a 2xx;` +
      ` "unfinished" = calls still waiting when the cap struck (${o.capMs / 1000} s for peers, ${Math.max(o.capMs, HEADWAY_CAP_MS) / 1000} s for Headway; the run is marked ⏱ and its wall is the cap).`,
    ['client', 'dialect', 'wall s', '÷ min', '429s', 'attempts', 'failed', 'unfinished'],
    summary.map((s) => [
      s.cell.spec.headway ? `**${s.cell.spec.label}**` : s.cell.spec.label,
      s.cell.dialect,
      `${fixed(s.wallMs / 1000, 2)}${s.capped ? ' ⏱' : ''}`,
      `${fixed(s.ratio, 3)}×`,
      int(s.refused),
      int(s.attempts),
      int(s.gaveUp),
      int(s.unfinished),
    ]),
  );

  // Best peer: fewest failures, then fewest 429s, then the fastest.
  const peers = summary.filter((s) => !s.cell.spec.headway);
  const best = [...peers].sort(
    (a, b) => a.failed - b.failed || a.refused - b.refused || a.ratio - b.ratio,
  )[0];
  const bestText = best
    ? `${best.cell.spec.label}${best.cell.dialect === 'ietf' ? '' : ` (${best.cell.dialect})`}: ${fixed(best.ratio, 3)}×, ${int(best.refused)}×429, ${int(best.failed)} failed or unfinished`
    : '—';
  for (const s of summary) {
    if (!s.cell.spec.headway) continue;
    const configured = s.cell.spec.id === 'headway-configured';
    const hasLimitHeader = s.cell.dialect !== 'none';
    // Configured: issue #12 keeps today's figures (S1 ≤ 1.01×, S1b ≤ 1.02×). `Retry-After` only:
    // issue #12's 1.45× (an older 1.3× was below the ≈ 1.37× floor in README Limits).
    const t = learningTargets;
    const maxRatio = configured
      ? name === 'S1'
        ? 1.01
        : 1.02
      : hasLimitHeader
        ? t.learnedRatio
        : t.retryAfterRatio;
    const max429 = configured ? 0 : hasLimitHeader ? S1_BURST : t.retryAfterRefusedShare * o.n;
    const target = `≤ ${maxRatio}× min, ≤ ${configured ? 0 : hasLimitHeader ? `${S1_BURST} (burst)` : '5 %'} 429s, 0 failed`;
    const misses: string[] = [];
    if (!(s.ratio <= maxRatio)) misses.push(`wall ${fixed(s.ratio, 3)}×`);
    if (!(s.refused <= max429)) misses.push(`${int(s.refused)} 429s (${pct(s.refused / o.n)})`);
    if (s.failed > 0) misses.push(`${int(s.failed)} failed`);
    report.verdict({
      scenario: name,
      row: `${name} ${configured ? 'configured' : 'unconfigured'}, ${s.cell.dialect}`,
      headway: `${fixed(s.ratio, 3)}×, ${int(s.refused)}×429, ${int(s.failed)} failed`,
      bestPeer: bestText,
      target,
      pass: misses.length === 0,
      ...(misses.length ? { note: misses.join(', ') } : {}),
    });
  }
}

export const s1Clients = allClients;

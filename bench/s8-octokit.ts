/**
 * S8: GitHub's secondary limits with the real `@octokit/rest`. 300 issue reads from 16 callers
 * against the GitHub-shaped server (bench/lib/github-server.ts: primary 100 per 5 s, at most 8 in
 * flight, 40 per second, secondary refusals 403 + `retry-after: 1`, 50 ms per admitted read), in
 * one run: Headway as the SDK's fetch, `@octokit/plugin-throttling`, and the SDK alone, alternated.
 * Target (issue #13): no more refusals than plugin-throttling, and no slower.
 */
import type { GitHubLimits } from './lib/github-server.js';
import { type OctokitJobResult, type OctokitSetup, runOctokitJob } from './lib/octokit-job.js';
import type { Report } from './lib/report.js';
import { median } from './lib/stats.js';

export interface S8Options {
  reps: number;
  n: number;
  callers: number;
}

const limits: GitHubLimits = {
  limit: 100,
  windowMs: 5000,
  maxInFlight: 8,
  perSecond: 40,
  retryAfterSeconds: 1,
  latencyMs: 50,
};
const setups: { setup: OctokitSetup; label: string }[] = [
  { setup: 'headway', label: '**Headway** (`request: { fetch: createFetch() }`)' },
  { setup: 'throttling', label: '@octokit/plugin-throttling' },
  { setup: 'bare', label: '@octokit/rest alone' },
];

const refusals = (r: OctokitJobResult) => r.counts.primary + r.counts.concurrent + r.counts.perSecond;

export async function runS8(report: Report, o: S8Options): Promise<void> {
  const runs = new Map<OctokitSetup, OctokitJobResult[]>(setups.map((s) => [s.setup, []]));
  for (let rep = 0; rep < o.reps; rep++)
    for (const { setup } of setups) {
      console.error(`S8 rep ${rep + 1}/${o.reps}: ${setup}`);
      runs.get(setup)!.push(await runOctokitJob(setup, { n: o.n, callers: o.callers, limits, retries: 10 }));
    }
  const m = (setup: OctokitSetup, f: (r: OctokitJobResult) => number) => median(runs.get(setup)!.map(f));
  report.table(
    `S8: @octokit/rest, ${o.n} issue reads from ${o.callers} callers, GitHub's primary and secondary limits`,
    `Medians of ${o.reps} rep(s). Server: primary ${limits.limit} per ${limits.windowMs / 1000} s (\`x-ratelimit-*\`), secondary: at most ${limits.maxInFlight} in flight and ${limits.perSecond} per second, refused 403 + \`retry-after: ${limits.retryAfterSeconds}\`; ${limits.latencyMs} ms per read. plugin-throttling retries every refusal (up to 10 times a call); the SDK alone retries none.`,
    [
      'client',
      'wall s',
      'ok',
      'failed',
      'refused: primary',
      'too many in flight',
      'per second',
      'learned in-flight cap',
    ],
    setups.map(({ setup, label }) => [
      label,
      (m(setup, (r) => r.wallMs) / 1000).toFixed(1),
      String(m(setup, (r) => r.ok)),
      String(m(setup, (r) => r.failed)),
      String(m(setup, (r) => r.counts.primary)),
      String(m(setup, (r) => r.counts.concurrent)),
      String(m(setup, (r) => r.counts.perSecond)),
      setup === 'headway' ? String(m(setup, (r) => r.inFlightCap ?? 0)) : '–',
    ]),
  );
  const ours = {
    wall: m('headway', (r) => r.wallMs),
    refused: m('headway', refusals),
    failed: m('headway', (r) => r.failed),
  };
  const peer = { wall: m('throttling', (r) => r.wallMs), refused: m('throttling', refusals) };
  const misses: string[] = [];
  if (ours.failed > 0) misses.push(`${ours.failed} failed`);
  if (ours.refused > peer.refused) misses.push(`${ours.refused} refusals`);
  if (ours.wall > peer.wall) misses.push(`${(ours.wall / peer.wall).toFixed(2)}× plugin-throttling's time`);
  report.verdict({
    scenario: 'S8',
    row: 'S8 Octokit, secondary limits',
    headway: `${(ours.wall / 1000).toFixed(1)} s, ${ours.refused} refused`,
    bestPeer: `plugin-throttling: ${(peer.wall / 1000).toFixed(1)} s, ${peer.refused} refused`,
    target: '≤ plugin-throttling refusals, ≤ its time, 0 failed',
    pass: misses.length === 0,
    ...(misses.length ? { note: misses.join(', ') } : {}),
  });
}

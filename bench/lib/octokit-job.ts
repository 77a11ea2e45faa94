/**
 * The Octokit job (contract test and bench S8): `n` issue reads with the real `@octokit/rest`,
 * from `callers` callers pulling from one counter, against a fresh GitHub-shaped server, in one of
 * three setups:
 * - `headway`: Headway as the SDK's fetch (`request: { fetch: createFetch() }`), nothing configured;
 * - `throttling`: `@octokit/plugin-throttling`, the peer GitHub users reach for, retrying every
 *   primary and secondary refusal it is told of (up to `retries` times per call);
 * - `bare`: the SDK alone (it retries nothing: a refusal is a thrown `RequestError`).
 */
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import { createFetch } from 'headway';
import { type GitHubCounts, type GitHubLimits, startGitHubServer } from './github-server.js';

/** How the SDK is set up. */
export type OctokitSetup = 'headway' | 'throttling' | 'bare';

export interface OctokitJob {
  n: number;
  callers: number;
  limits: GitHubLimits;
  /** Retries per call for the throttling plugin. */
  retries: number;
}

export interface OctokitJobResult {
  /** Reads that returned the issue. */
  ok: number;
  /** Reads that threw. */
  failed: number;
  wallMs: number;
  /** What the server answered. */
  counts: GitHubCounts;
  /** Headway's learned in-flight cap (`headway` only). */
  inFlightCap: number | null;
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const ThrottledOctokit = Octokit.plugin(throttling);

/** Runs the job once with a fresh server and a fresh SDK; never throws for a failed read. */
export async function runOctokitJob(setup: OctokitSetup, job: OctokitJob): Promise<OctokitJobResult> {
  const server = await startGitHubServer(job.limits);
  const headway = setup === 'headway' ? createFetch() : null;
  const baseUrl = server.url;
  const retry = (_after: number, _options: object, _octokit: object, retryCount: number) =>
    retryCount < job.retries;
  const octokit =
    setup === 'throttling'
      ? new ThrottledOctokit({
          baseUrl,
          log: silent,
          throttle: { onRateLimit: retry, onSecondaryRateLimit: retry },
        })
      : new Octokit({ baseUrl, log: silent, ...(headway ? { request: { fetch: headway } } : {}) });
  let next = 0;
  let ok = 0;
  let failed = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: job.callers }, async () => {
        for (let i = next++; i < job.n; i = next++) {
          try {
            const { data } = await octokit.rest.issues.get({ owner: 'o', repo: 'r', issue_number: i + 1 });
            if (data.number === i + 1) ok++;
            else failed++;
          } catch {
            failed++;
          }
        }
      }),
    );
    const wallMs = performance.now() - started;
    return {
      ok,
      failed,
      wallMs,
      counts: server.counts(),
      inFlightCap: headway?.stats()[0]?.inFlightCap ?? null,
    };
  } finally {
    await server.close();
  }
}

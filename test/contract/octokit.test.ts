/**
 * Issue #13, contract: the real `@octokit/rest`, unchanged, against a GitHub-shaped server on
 * loopback (bench/lib/github-server.ts: the primary `x-ratelimit-*` window, and the secondary
 * limits — too many in flight, too many per second — answered 403 with `retry-after` and GitHub's
 * message). 120 issue reads from 16 callers, in three setups: Headway as the SDK's `fetch`, the SDK
 * with `@octokit/plugin-throttling`, and the SDK alone. Asserted: completion and refusal counts;
 * the durations are the benchmark's (S8).
 */
import { describe, expect, it } from 'vitest';
import type { GitHubLimits } from '../../bench/lib/github-server.js';
import { runOctokitJob } from '../../bench/lib/octokit-job.js';

const limits: GitHubLimits = {
  limit: 60,
  windowMs: 2000,
  maxInFlight: 4,
  perSecond: 40,
  retryAfterSeconds: 1,
  latencyMs: 20,
};
const job = { n: 120, callers: 16, limits, retries: 10 };

describe('@octokit/rest against GitHub-shaped limits', () => {
  it('with Headway as its fetch: every read completes, no primary refusal, the in-flight cap learned', async () => {
    const result = await runOctokitJob('headway', job);
    expect(result).toMatchObject({ ok: job.n, failed: 0 });
    expect(result.counts.primary).toBe(0);
    expect(result.counts.peakInFlight).toBeLessThanOrEqual(limits.maxInFlight);
    // The first burst is refused while the admitted calls are in flight: that teaches a cap.
    expect(result.inFlightCap).not.toBeNull();
  }, 60_000);

  it('with @octokit/plugin-throttling: every read completes, after primary and secondary refusals', async () => {
    const result = await runOctokitJob('throttling', job);
    expect(result).toMatchObject({ ok: job.n, failed: 0 });
    expect(result.counts.primary + result.counts.concurrent + result.counts.perSecond).toBeGreaterThan(0);
  }, 60_000);

  it('alone: every refusal is a thrown RequestError', async () => {
    const result = await runOctokitJob('bare', job);
    const refused = result.counts.primary + result.counts.concurrent + result.counts.perSecond;
    expect(result.failed).toBe(refused);
    expect(result.failed).toBeGreaterThan(0);
    expect(result.ok + result.failed).toBe(job.n);
  }, 60_000);
});

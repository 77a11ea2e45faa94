/**
 * README, "How Headway reads a server": one server model "per window the server reports (`requests`
 * per second, per minute, a daily cap: the binding one decides)"; "Which headers are understood":
 * draft-6 reads `RateLimit-Limit: 10, 10;w=1, 50;w=60` (the limit, then the quota policies).
 *
 * A draft-6 server of 10 per second and N per minute states the binding window's counters. Since
 * bdc7e85 those counters are named after the policy they match (`10;w=1`, then `60;w=60` once the
 * minute binds), so the minute gets a track of its own. Once the minute resets, the second binds
 * again and the answers carry only the second's counters; the minute's track, no longer read, keeps
 * governing with what it learned (a bucket of the minute's average rate, 1/s), and the calls after
 * the reset trickle out at that rate where the second's 10/s allows them. Before bdc7e85 (one
 * `default` track) the same batches finished about a second after the minute's reset.
 *
 * Found on 2026-12-06 (session 25, a review of that day's changes) against bdc7e85 (draft-6 lists
 * naming the counters' window after the policy it matched); the change was taken back the same
 * day, and this test keeps its regression out: it passes on the code without it. The figures above
 * are that change's, against the code before and after it.
 */
import { describe, expect, it } from 'vitest';
import { type NamedPolicy, runBatch } from './multi-window-server.js';

describe('a draft-6 server of 10/s and a per-minute quota, after the minute resets', () => {
  it('token bucket 10/s + 60 per minute, 100 calls: the 40 after the reset go at the second’s rate', async () => {
    const policies: NamedPolicy[] = [
      { name: 'sec', algorithm: 'token-bucket', policy: { limit: 10, windowMs: 1000 } },
      { name: 'min', algorithm: 'fixed-window', policy: { limit: 60, windowMs: 60_000 } },
    ];
    const run = await runBatch({ policies, mode: 'draft-6', n: 100, callers: 8 });
    expect(run.admittedAt).toHaveLength(100);
    // The minute resets at 60 s; 40 calls at 10/s take 4 s (63.5 s before bdc7e85).
    expect(Math.max(...run.admittedAt)).toBeLessThan(66_000);
  }, 30_000);

  it('fixed windows 10/s + 30 per minute, 50 calls: the 20 after the reset go within ~2 s', async () => {
    const policies: NamedPolicy[] = [
      { name: 'sec', algorithm: 'fixed-window', policy: { limit: 10, windowMs: 1000 } },
      { name: 'min', algorithm: 'fixed-window', policy: { limit: 30, windowMs: 60_000 } },
    ];
    const run = await runBatch({ policies, mode: 'draft-6', n: 50, callers: 8 });
    expect(run.admittedAt).toHaveLength(50);
    // The minute resets at 60 s; 20 calls at 10/s take 2 s (61.5 s before bdc7e85).
    expect(Math.max(...run.admittedAt)).toBeLessThan(64_000);
  }, 30_000);
});

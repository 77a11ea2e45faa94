/**
 * README, "Which headers are understood": draft-6 reads `RateLimit-Limit: 10, 10;w=1` (drafts 03–06,
 * whose limit field is "the limit, followed by quota policies": `10, 10;w=1, 50;w=60`), and "How
 * Headway reads a server": one server model "per window the server reports (`requests` per second,
 * per minute, a daily cap: the binding one decides)"; "Token quotas": "Headway paces every window
 * the server reports … and leaves when every window has room for it".
 *
 * A draft-6 server of 10 per second and 30 per minute states its counters for the binding window:
 * `RateLimit-Limit: 10, 10;w=1, 30;w=60` while the second binds, `RateLimit-Limit: 30, 10;w=1,
 * 30;w=60` once the minute does. The reader names the window the counters describe `default`
 * whichever policy they are, so both windows feed one track: the minute's counters are read as the
 * same window that held 10 per second. With the minute spent (the answer says `RateLimit-Remaining:
 * 0`, `RateLimit-Reset: 46`) the client sends again at 14 s and is refused; `stats()` reports a
 * window of burst 10 refilled at 0.5/s, a mix of the two. Stated as IETF policies (each with its
 * own name), the same server is paced with no refusal.
 *
 * Open (2026-12-06, session 25). Tried the same day and taken back: naming the counters' window
 * after the policy it matched (`30;w=60`) gave each window a track of its own, but the minute's
 * track, stated no more once the second bound again, kept pacing the key at the minute's average
 * (draft6-minute-track-paces-after-reset.test.ts keeps it out). The cause is the one of ietf-
 * binding-policy-only-counters.test.ts: a window is tracked only from the first answer that states
 * its counters, and its limit is read from the most it was seen to have left.
 *
 * Tried twice more on 2026-12-06 (session 26) and taken back both times: following a window from
 * its listing fixed this test but left four regressions each time (README Limits; the
 * listed-window-*, draft6-plan-upgrade-*, draft6-per-route-*, draft6-listed-minute-*,
 * ietf-listed-org-* and fleet-draft6-* tests keep them out).
 */
// Known issue, open (README, Limits: "Known issues found by the review rounds"): marked
// `it.fails` so the suite reproduces it on every run; when a fix lands this test fails, and
// `.fails` comes off.
import { describe, expect, it } from 'vitest';
import type { KeyStats } from '../../src/client/stats.js';
import { type NamedPolicy, runBatch } from './multi-window-server.js';

const POLICIES: NamedPolicy[] = [
  { name: 'sec', algorithm: 'fixed-window', policy: { limit: 10, windowMs: 1000 } },
  { name: 'min', algorithm: 'fixed-window', policy: { limit: 30, windowMs: 60_000 } },
];

describe('a draft-6 server whose binding window changes from the second to the minute', () => {
  it('the same server stated as IETF policies: 50 calls, no refusal (the baseline)', async () => {
    const run = await runBatch({ policies: POLICIES, mode: 'all', n: 50, callers: 8 });
    expect(run.refusedAt).toEqual([]);
    expect(run.admittedAt).toHaveLength(50);
  }, 30_000);

  it.fails('stated in draft-6 (`RateLimit-Limit: 30, 10;w=1, 30;w=60`, remaining 0): no call goes before the minute resets', async () => {
    const run = await runBatch({ policies: POLICIES, mode: 'draft-6', n: 50, callers: 8 });
    expect(run.admittedAt).toHaveLength(50);
    // Observed: [14115] (a call sent 14 s in, with the minute's 30 spent and 46 s to its reset)
    expect(run.refusedAt).toEqual([]);
  }, 30_000);

  it.fails('stats() names the minute window once it binds: 30 at once, not burst 10', async () => {
    let learned: KeyStats['learned'] | undefined;
    await runBatch({
      policies: POLICIES,
      mode: 'draft-6',
      n: 50,
      callers: 8,
      at: { ms: 30_000, read: (fetch) => (learned = fetch.stats()[0]?.learned) },
    });
    // Observed: { rate: 0.5, burst: 10, source: 'policy', … } (the minute's rate, the second's burst)
    expect(learned?.burst).toBe(30);
  }, 30_000);
});

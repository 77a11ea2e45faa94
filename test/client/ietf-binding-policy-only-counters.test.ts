/**
 * README, "Token quotas": "Headway paces every window the server reports, each in its own unit …
 * and leaves when every window has room for it"; "How Headway reads a server": a window model's
 * units are "each back by `answer + window` … or the stated reset". An IETF server may state every
 * policy in `RateLimit-Policy` and name in `RateLimit` only the one that binds
 * (`RateLimit-Policy: "sec";q=10;w=1, "min";q=100;w=60`, `RateLimit: "min";r=0;t=51`).
 *
 * Against 10 per second (fixed window) and 100 per minute (fixed window), stated that way, the
 * minute's counters appear only in its last second (9 left, then 8 … 0) and never again once the
 * second binds. The client reads the minute as a window of 10 (the most it saw left, plus one;
 * burst 10) and so (1) sends at 15.8 s, 44 s before the reset the minute stated with `r=0`, and is
 * refused; (2) once the minute came round at 60 s (100 back, stated `t`), paces the last calls at
 * the minute's average, 100/60 = 1.67 a second, for 26 s, where both windows allow 10 a second.
 * The same server naming every policy in `RateLimit` is paced with no refusal, done by 64.6 s.
 *
 * Open (2026-12-06, session 25): the same cause as draft6-binding-window-changes.test.ts: a window
 * is tracked only from the first answer that states its counters, and its limit is read from the
 * most it was seen to have left.
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
import { type NamedPolicy, runBatch } from './multi-window-server.js';

const POLICIES: NamedPolicy[] = [
  { name: 'sec', algorithm: 'fixed-window', policy: { limit: 10, windowMs: 1000 } },
  { name: 'min', algorithm: 'fixed-window', policy: { limit: 100, windowMs: 60_000 } },
];

describe('IETF: RateLimit names only the binding policy (10/s and 100/min)', () => {
  it('every policy named in RateLimit: no refusal, 150 calls done by 65 s (the baseline)', async () => {
    const run = await runBatch({ policies: POLICIES, mode: 'all', n: 150, callers: 8 });
    expect(run.refusedAt).toEqual([]);
    expect(Math.max(...run.admittedAt)).toBeLessThan(65_000);
  }, 30_000);

  it.fails('no call goes while the minute last stated r=0 and its reset is still ahead', async () => {
    const run = await runBatch({ policies: POLICIES, mode: 'binding', n: 150, callers: 8 });
    // Observed: [15752] (the answer at ~9.9 s said "min";r=0;t=51)
    expect(run.refusedAt).toEqual([]);
  }, 30_000);

  it.fails('once the minute came round, the last 50 calls go at 10/s, not at 100/60 per second', async () => {
    const run = await runBatch({ policies: POLICIES, mode: 'binding', n: 150, callers: 8 });
    expect(run.admittedAt).toHaveLength(150);
    // Observed: 86181 (from 61 s on, 1 or 2 calls a second)
    expect(Math.max(...run.admittedAt)).toBeLessThan(70_000);
  }, 30_000);
});

/**
 * README, "How Headway reads a server": "one server model per window the server reports … the
 * binding one decides", and "the pacer changes its mind when the server does"; "Which headers are
 * understood": draft-6 reads `RateLimit-Limit: 10, 10;w=1, 50;w=60` (the limit, then the quota
 * policies).
 *
 * A draft-6 server of 10 per second (a token bucket) and 1,000 per minute states the binding
 * window's counters: `RateLimit-Limit: 10, 10;w=1, 1000;w=60`. At 20 s a plan upgrade raises the
 * second to 20 per second: `RateLimit-Limit: 20, 20;w=1, 1000;w=60`. Since 61e8d68 the counters'
 * window is named after the policy it matches (`10;w=1`, then `20;w=1`), so the upgrade starts a new
 * track and the old one, no longer stated, keeps governing from what it knew: a bucket of 10 per
 * second, charged with every send. 600 calls (8 callers) then go at 10 a second to the end; before
 * 61e8d68 (one `default` track, which read the new limit and rate) they went at 20 a second after
 * the upgrade, as the same server stated as IETF policies (named `sec` and `min`) still does.
 *
 * Measured on the manual clock: last call admitted at 59.3 s (before 61e8d68: 39.6 s; IETF, every
 * counter or the binding one's: 39.6 s; a client that reads no counters, learning from refusals:
 * 59.5 s with 9 refusals); `stats()` at 30 s reads rate 10 (before: 20). With a fixed window for
 * the second the old track's ledger empties and holds nothing (39.3 s either way).
 *
 * Found on 2026-12-06 (session 26, a review of 61e8d68, which tracked a window from its listing);
 * the change was taken back the same day, and this test keeps its regression out: it passes on the
 * code without it. The figures above are that change's, against the code before it.
 */
import { describe, expect, it } from 'vitest';
import type { KeyStats } from '../../src/client/stats.js';
import { type ListedServerOptions, type NamedPolicy, runListed } from './listed-window-server.js';

const MINUTE: NamedPolicy = {
  name: 'min',
  algorithm: 'fixed-window',
  policy: { limit: 1000, windowMs: 60_000 },
};
const perSecond = (limit: number): NamedPolicy => ({
  name: 'sec',
  algorithm: 'token-bucket',
  policy: { limit, windowMs: 1000 },
});
const upgraded = (mode: ListedServerOptions['mode']): ListedServerOptions => ({
  mode,
  phases: [
    { fromMs: 0, policies: [perSecond(10), MINUTE] },
    { fromMs: 20_000, keep: true, policies: [perSecond(20), MINUTE] },
  ],
});

describe('a plan upgrade from 10 to 20 per second, beside a minute of 1,000', () => {
  it('stated as IETF policies (RateLimit names the binding one): 600 calls done by 45 s (the baseline)', async () => {
    const run = await runListed({ server: upgraded('binding'), n: 600, callers: 8 });
    expect(run.admittedAt).toHaveLength(600);
    expect(run.last).toBeLessThan(45_000);
  }, 30_000);

  it('stated in draft-6 (`RateLimit-Limit: 20, 20;w=1, 1000;w=60` after the upgrade): 600 calls done by 45 s', async () => {
    const run = await runListed({ server: upgraded('draft-6'), n: 600, callers: 8 });
    expect(run.admittedAt).toHaveLength(600);
    expect(run.last).toBeLessThan(45_000);
  }, 30_000);

  it('stats() reads the upgraded rate (20 a second) 10 s after the upgrade', async () => {
    let learned: KeyStats['learned'] | undefined;
    await runListed({
      server: upgraded('draft-6'),
      n: 600,
      callers: 8,
      at: { ms: 30_000, read: (fetch) => (learned = fetch.stats()[0]?.learned) },
    });
    expect(learned?.rate).toBe(20);
  }, 30_000);
});

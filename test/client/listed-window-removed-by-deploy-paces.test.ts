/**
 * README, "How Headway reads a server": "the first that the evidence has not contradicted governs
 * … so the pacer changes its mind when the server does", and "A window the server lists beside
 * another's counters without its own … is followed from the first answer that lists it: until its
 * counters are read it is taken as full at its listed quota".
 *
 * A server of 10 per second (a token bucket) and 300 per minute (a fixed window) states the
 * binding window's counters only (IETF: `RateLimit` names the binding policy; draft-6: the binding
 * window's counters beside `10;w=1, 300;w=60`). The client's 10 a second never make the minute
 * bind. At 10 s a deploy removes the minute: the answers list and state the second alone. Since
 * 61e8d68 the minute has had a track from its first listing, and that track is never dropped: never
 * read, its bucket (300 at once, 5 a second: the listed quota's average) is never contradicted, so
 * it governs for good and, once the 300 are spent at 60 s, holds the key to 5 a second, for a
 * window the server no longer has. Before 61e8d68 a window had a track only once its counters were
 * read, and this one never was.
 *
 * Measured on the manual clock, 1,200 calls (8 callers): the last admitted at 180.4 s, IETF and
 * draft-6 alike (before 61e8d68: 119.3 s; every counter stated: 119.3 s; a client that reads no
 * counters: 119.3 s with 9 refusals); `stats()` at 90 s reads rate 5, burst 300 (before: rate 10,
 * burst 10). A policy renamed by a deploy (`min` of 300 → `minute` of 600) does the same
 * (180.4 s), and so does a fixed window of 10 per second in place of the bucket (180.4 s; before:
 * 119.4 s). Tracks of windows that had counters and are then removed were never dropped before
 * 61e8d68 either (a token-bucket minute stated with every counter, then removed: 180.5 s before and
 * after), but only those: a window never read now governs from its listing alone.
 *
 * Found on 2026-12-06 (session 26, a review of 61e8d68, which tracked a window from its listing);
 * the change was taken back the same day, and this test keeps its regression out: it passes on the
 * code without it. The figures above are that change's, against the code before it.
 */
import { describe, expect, it } from 'vitest';
import type { KeyStats } from '../../src/client/stats.js';
import { type ListedServerOptions, type NamedPolicy, runListed } from './listed-window-server.js';

const SECOND: NamedPolicy = { name: 'sec', algorithm: 'token-bucket', policy: { limit: 10, windowMs: 1000 } };
const MINUTE: NamedPolicy = {
  name: 'min',
  algorithm: 'fixed-window',
  policy: { limit: 300, windowMs: 60_000 },
};
const minuteRemoved = (mode: ListedServerOptions['mode']): ListedServerOptions => ({
  mode,
  phases: [
    { fromMs: 0, policies: [SECOND, MINUTE] },
    { fromMs: 10_000, keep: true, policies: [SECOND] },
  ],
});

describe('a deploy removes a listed minute the client never saw bind (10/s and 300/min, then 10/s)', () => {
  it('every counter stated: 1,200 calls done by 125 s (the baseline)', async () => {
    const run = await runListed({ server: minuteRemoved('all'), n: 1200, callers: 8 });
    expect(run.admittedAt).toHaveLength(1200);
    expect(run.last).toBeLessThan(125_000);
  }, 30_000);

  it.each(['binding', 'draft-6'] as const)(
    'the binding counters only (%s): 1,200 calls done by 125 s, not paced at the removed minute’s average',
    async (mode) => {
      const run = await runListed({ server: minuteRemoved(mode), n: 1200, callers: 8 });
      expect(run.admittedAt).toHaveLength(1200);
      expect(run.last).toBeLessThan(125_000);
    },
    30_000,
  );

  it('stats() no longer reads the removed minute 80 s after the deploy', async () => {
    let learned: KeyStats['learned'] | undefined;
    await runListed({
      server: minuteRemoved('binding'),
      n: 1200,
      callers: 8,
      at: { ms: 90_000, read: (fetch) => (learned = fetch.stats()[0]?.learned) },
    });
    expect(learned?.rate).toBe(10);
  }, 30_000);
});

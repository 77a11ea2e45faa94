/**
 * A proxy put in front of a fixed-window server (100 per second, IETF) strips its rate-limit
 * fields from 3 s on: only `Retry-After` (and `Date`) reach the client.
 *
 * README ("How Headway reads a server"): a server that says nothing but `429` (a proxy,
 * `Retry-After` only) is learned from its refusals by the no-counters model — "A server without
 * counters teaches only by refusing" — and "the pacer changes its mind when the server does". A
 * client that never saw the fields (the control below) stops being refused within a few windows.
 *
 * What happens instead: a key that has seen counters once keeps its tracks, and the no-counters
 * model paces only a key with no track (`Pacer#paceDelay`, `grant`), so nothing learns from the
 * refusals; the window model, handed answers with no reading, never enters them in its ledger, so
 * each answered unit is forgotten and it spends past the window again: a few 429s in every window
 * for as long as the fields stay away.
 *
 * Fixed on 2026-12-06 (the fifth review round): a refusal without counters, 2 s after the last
 * answer that stated them, makes a key forget the windows its server stated, and it learns from
 * refusals as a key that never saw counters. What the text above describes is how it behaved before.
 */
import { describe, expect, it } from 'vitest';
import { runAgainstChangingServer } from './changing-server.js';

const fixedWindow = { policy: { limit: 100, windowMs: 1000 }, algorithm: 'fixed-window' } as const;

describe('a fixed window whose rate-limit fields a proxy strips from 3 s on', () => {
  it('refusals stop within a few windows, as for a server that never sent them', async () => {
    const run = await runAgainstChangingServer({
      before: { ...fixedWindow, headers: 'ietf' },
      changeAtMs: 3000,
      stripFromChange: true,
      callers: 8,
      oneWayMs: 2,
      seconds: 20,
    });
    expect(run.refused.slice(0, 3)).toEqual([0, 0, 0]);
    // The windows the server stated are forgotten at the first refusal without counters 2 s after the
    // last ones; from then on the key learns from refusals: a window's burst, then calls one at a
    // time that find its boundary, refused there now and then (README Limits: a window that states
    // only `Retry-After`). At most one refusal a window, where the stale windows drew three.
    const late = run.refused.slice(10);
    expect(Math.max(...late)).toBeLessThanOrEqual(1);
  });

  it('control: the same server with no fields from the start stops refusing within a few windows', async () => {
    const run = await runAgainstChangingServer({
      before: { ...fixedWindow, headers: 'none' },
      changeAtMs: 0,
      callers: 8,
      oneWayMs: 2,
      seconds: 20,
    });
    const late = run.refused.slice(8);
    expect(late).toEqual(late.map(() => 0));
  });
});

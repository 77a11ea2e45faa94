/**
 * Review (area: events). README "Obey": a 429 with a retry hint "closes the key's gate, so every
 * queued and new call waits"; README "Events and stats": `onThrottle` fires when "a call waits:
 * { key, waitMs, reason: 'pacing' | 'gate' | 'outage' }", and `headway.client.wait.duration` records
 * "each wait a call was told to take before its next attempt (`onThrottle`)".
 *
 * A call that meets a closed gate behind the head of its key's line is judged at once
 * (src/client/turn.ts: `waitTurn` calls `checkWait(gated, true)`, "Reported at the head") but never
 * reported: by the time it reaches the head the gate is open, so its whole gate wait goes unseen.
 * Of three calls that each wait 4 s for the gate, only the first reports a wait, while
 * `stats().waitedMs` counts all three.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('onThrottle: calls queued behind a closed gate', () => {
  it('reports one gate wait per call that waits for the gate, not only for the head', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '5' } } : { status: 200 },
    );
    // A bucket far from binding: the gate is the only wait. No spread (random 0), no retry.
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      random: () => 0,
      retries: 0,
      rate: 100,
      burst: 100,
    });
    const events: Array<{ key: string; waitMs: number; reason: string }> = [];
    fetch.onThrottle((e) => events.push({ key: e.key, waitMs: e.waitMs, reason: e.reason }));

    expect((await fetch(URL_A)).status).toBe(429); // the key's gate is closed until 5 000
    await clock.advance(1_000);
    const results = await runUntilSettled(clock, [fetch(URL_A), fetch(URL_A), fetch(URL_A)], 10);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    // Each of the three waited the gate's 4 s.
    expect(server.seen.map((s) => s.at)).toEqual([0, 5_000, 5_000, 5_000]);
    expect(fetch.stats()[0]!.waitedMs).toBe(12_000);

    const gate = { key: 'http://127.0.0.1:9', waitMs: 4_000, reason: 'gate' };
    expect(events).toEqual([gate, gate, gate]);
  });
});

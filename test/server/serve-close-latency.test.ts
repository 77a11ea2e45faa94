/**
 * `startServer({ latencyMs })` / `headway serve --latency-ms`: `close()` "stops listening and
 * closes open connections" (RunningServer TSDoc). An answer still being delayed when the server
 * closes has no connection left to answer on; its delay must not outlive the server (a timer left
 * behind keeps `headway serve` alive for up to `latencyMs` after SIGINT).
 */
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { startServer } from '../../src/server/serve.js';

describe('startServer latencyMs: close() while an answer is delayed', () => {
  it('leaves no latency sleep pending on the clock', async () => {
    const manual = new ManualClock();
    let sleeping: () => void = () => {};
    const asleep = new Promise<void>((resolve) => {
      sleeping = resolve;
    });
    const clock: Clock = {
      now: () => manual.now(),
      wallNow: () => manual.wallNow(),
      sleep: (ms, signal) => {
        if (ms === 60_000) sleeping();
        return manual.sleep(ms, signal);
      },
    };
    const server = await startServer({ clock, latencyMs: 60_000 });
    const pending = fetch(server.url).then(
      (r) => r.status,
      () => 'connection closed',
    );
    await asleep;
    expect(manual.pending).toBe(1);
    await server.close();
    expect(await pending).toBe('connection closed');
    expect(manual.pending).toBe(0);
  });
});

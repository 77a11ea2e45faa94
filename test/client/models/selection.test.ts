import { describe, expect, it } from 'vitest';
import {
  newTrack,
  type Track,
  trackDelay,
  trackGovernsConfigured,
  trackObserve,
  trackReplacesConfigured,
  trackSent,
  trackSnapshot,
} from '../../../src/client/models/index.js';
import { answer, window } from './helpers.js';

/** Sends one unit at `at` and answers it at once with `remaining` of a 100-unit window stated as 200/s. */
function step(track: Track, at: number, mark: number, remaining: number): Track {
  const sent = trackSent(track, 1, at, mark, 0);
  const reading = window({ quota: 100, remaining, resetInMs: 1000 });
  return trackObserve(sent, answer({ at, mark, window: reading, statedRate: 200 }));
}

describe('choosing the model of a window', () => {
  it('a count that creeps back as it is spent is a bucket', () => {
    let track = newTrack('requests:default', 0, { spread: false });
    // 200/s refill, one send every 10 ms: remaining grows by one per step.
    for (let i = 1; i <= 50; i++) track = step(track, i * 10, i, Math.min(99, 50 + i));
    expect(trackSnapshot(track, 500, 0).source).toBe('policy');
    expect(trackGovernsConfigured(track)).toBe(false);
  });

  it('a count that stays down, then returns to full at once, is a window', () => {
    let track = newTrack('requests:default', 0, { spread: false });
    // 100 spent in the first 100 ms; no refill at all.
    for (let i = 1; i <= 100; i++) track = step(track, i, i, 100 - i);
    expect(trackSnapshot(track, 100, 0)).toMatchObject({ source: 'window', tokens: 0 });
    expect(trackGovernsConfigured(track)).toBe(true);
    // The first unit is back 500 ms after its answer (at 1), rounded up to the ledger's 500/256 ms
    // slot; that first return is tested one unit's share of the window (5 ms) and 2 ms later.
    expect(trackDelay(track, 1, 100, 0)).toBe(409);
  });

  it('a window of known length replaces a configured bucket, bounded by its rate', () => {
    const spent = (track: Track) => {
      let t = track;
      for (let i = 1; i <= 100; i++) t = step(t, i, i, 100 - i);
      return t;
    };
    const configured = spent(newTrack('requests:default', 0, { spread: false, maxRate: 200 }));
    expect(trackReplacesConfigured(configured)).toBe(true);
    // Unconfigured, or while a bucket governs, the configured bucket keeps pacing.
    expect(trackReplacesConfigured(spent(newTrack('requests:default', 0, { spread: false })))).toBe(false);
    let bucket = newTrack('requests:default', 0, { spread: false, maxRate: 200 });
    for (let i = 1; i <= 50; i++) bucket = step(bucket, i * 10, i, Math.min(99, 50 + i));
    expect(trackReplacesConfigured(bucket)).toBe(false);
  });

  it('changes its mind back when the window is contradicted later than the bucket was', () => {
    let track = newTrack('requests:default', 0, { spread: false });
    for (let i = 1; i <= 100; i++) track = step(track, i, i, 100 - i);
    expect(trackSnapshot(track, 100, 0).source).toBe('window');
    // At 600 the server still counts 90 units the window model thought back (a sliding window
    // counter's weighted count), then creeps back like a bucket.
    for (let i = 0; i < 20; i++) track = step(track, 600 + i * 10, 101 + i, 10 + i);
    expect(trackSnapshot(track, 800, 0).source).not.toBe('window');
  });
});

describe('a fixed window read for many windows', () => {
  /** A fixed window of 100 per 500 ms stated as 200/s, its reset in whole seconds (always `t=1`). */
  const fixed = (remaining: number) => window({ quota: 100, remaining, resetInMs: 1000 });

  /**
   * Window `k` (from k·500 ms): 100 sends, one every 0.2 ms from 10 ms in, each answered at once
   * with up to `inFlight` other units on their way (fewer as the window's quota runs out). In the
   * first window the bucket is tried: 98 go at once (its cushion keeps 2), then one every 5 ms.
   * With `crossing`, the last send of each window is answered only in the next window (counted in
   * its own), halfway through that window's answers.
   */
  function fixedWindow(track0: Track, k: number, inFlight: number, crossing: boolean) {
    let track = track0;
    for (let i = 0; i < 100; i++) {
      const at = k * 500 + 10 + (k === 0 && i >= 98 ? 20 + (i - 97) * 5 : i / 5);
      const mark = 1 + k * 100 + i;
      const others = Math.min(inFlight, k === 0 ? Math.max(0, 97 - i) : 99 - i);
      track = trackSent(track, 1, at, mark, others);
      if (crossing && k > 0 && i === 99) break;
      track = trackObserve(
        track,
        answer({ at, mark, window: fixed(99 - i), statedRate: 200, inFlight: others }),
      );
      if (crossing && k > 1 && i === 50) {
        const sentAt = (k - 1) * 500 + 10 + 99 / 5;
        const late = answer({
          at,
          mark: mark - 51,
          sentAt,
          window: fixed(99 - i),
          statedRate: 200,
          inFlight: others,
        });
        track = trackObserve(track, late);
      }
    }
    return track;
  }

  it.each([
    ['answers in order', 0, false],
    ['up to 15 units in flight at every answer', 15, false],
    ["each window's last send answered in the next", 3, true],
  ] as const)('stays a window for 8 windows: %s', (_name, inFlight, crossing) => {
    let track = newTrack('requests:default', 0, { spread: false });
    for (let k = 0; k < 8; k++) {
      track = fixedWindow(track, k, inFlight, crossing);
      expect(trackSnapshot(track, k * 500 + 60, 0).source).toBe('window');
      expect(trackGovernsConfigured(track)).toBe(true);
    }
  });
});

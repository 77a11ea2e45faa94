import { describe, expect, it } from 'vitest';
import {
  newTrack,
  type Track,
  trackDelay,
  trackGovernsConfigured,
  trackObserve,
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
    // The first unit is back 500 ms after its answer (at 1), rounded up to the ledger's 500/256 ms slot.
    expect(trackDelay(track, 1, 100, 0)).toBe(402);
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

/**
 * A fixed window whose other client spends 30 of each 100 at the window's start: each window's
 * first test of the ledger's returns finds those 30 counted, and the window model reads them as a
 * count that creeps back (a sliding window counter) and rules itself out for good. The bucket then
 * paces the fixed window, and is refused once in every window.
 */
// Known issue, open (README, Limits: "Known issues found by the review rounds"): marked
// `it.fails` so the suite reproduces it on every run; when a fix lands this test fails, and
// `.fails` comes off.
import { describe, expect, it } from 'vitest';
import { runBesideCotenant } from './window-cotenant.js';

describe('a fixed window (draft-6) shared with another client that spends 30 of each 100 at its start', () => {
  it.fails('the window model keeps governing: no 429 after the first window', async () => {
    const r = await runBesideCotenant({
      algorithm: 'fixed-window',
      headers: 'draft-6',
      limit: 100,
      windowMs: 1000,
      foreign: 30,
      callers: 12,
      oneWayMs: 2,
      windows: 6,
    });
    expect(r.otherAdmitted).toEqual([30, 30, 30, 30, 30, 30]);
    // Observed: [1, 1, 1, 1, 1]: one 429 (and a 1 s Retry-After gate) in every window.
    expect(r.refused.slice(1)).toEqual([0, 0, 0, 0, 0]);
    // Observed: 'policy': the window model was ruled out for good, the stated rate's bucket paces.
    expect(r.source).toBe('window');
  });
});

/**
 * Another client's units in a fixed window, read as Headway's own sends in flight: once the window
 * model is confirmed, a reading taken while a dozen calls are in flight explains the other client's
 * units by "sends that overtook this one", holds none of them, and sends a batch into a full window.
 */
// Known issue, open (README, Limits: "Known issues found by the review rounds"): marked
// `it.fails` so the suite reproduces it on every run; when a fix lands this test fails, and
// `.fails` comes off.
import { describe, expect, it } from 'vitest';
import { runBesideCotenant } from './window-cotenant.js';

describe('a fixed window shared with another client that spends 10 of each 100 at its start', () => {
  it.fails.each(['draft-6', 'draft-7'] as const)(
    '%s: 12 calls in flight get no 429 after the first window, and keep to the 90 left',
    async (headers) => {
      const r = await runBesideCotenant({
        algorithm: 'fixed-window',
        headers,
        limit: 100,
        windowMs: 1000,
        foreign: 10,
        callers: 12,
        oneWayMs: 2,
        windows: 6,
      });
      expect(r.otherAdmitted).toEqual([10, 10, 10, 10, 10, 10]);
      expect(r.admitted).toEqual([90, 90, 90, 90, 90, 90]);
      // Observed: [9, 1, 0, 8, 0]: a batch of 8–9 calls refused at once every other window.
      expect(r.refused.slice(1)).toEqual([0, 0, 0, 0, 0]);
    },
  );
});

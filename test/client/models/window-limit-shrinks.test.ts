/** The window model's limit follows a stated limit that shrinks. */
import { expect, it } from 'vitest';
import { newWindow, windowModel } from '../../../src/client/models/window.js';
import { answer, window } from './helpers.js';

it('a stated limit that shrinks (10 → 5, X-RateLimit-*) is the window limit from then on', () => {
  let s = newWindow();
  let mark = 0;
  // A fixed window of 10: one reading, 9 left.
  s = windowModel.observe(
    s,
    answer({ at: 0, mark: ++mark, window: window({ quota: 10, remaining: 9, resetInMs: 1000 }) }),
  );
  expect(s.limit).toBe(10);
  // The next windows are 5: the server states the limit 5, and counts 1 (4 left).
  for (let at = 2000; at < 6000; at += 1000) {
    s = windowModel.observe(
      s,
      answer({ at, mark: ++mark, window: window({ quota: 5, remaining: 4, resetInMs: 1000 }) }),
    );
    expect({ at, limit: s.limit, free: windowModel.snapshot(s, at, 0).tokens }).toEqual({
      at,
      limit: 5,
      free: 4,
    });
  }
});

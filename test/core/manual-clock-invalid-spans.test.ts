/**
 * `ManualClock` (`headway/testing`) is a `Clock`, whose `now()` is "monotonic milliseconds …
 * never steps back" (`src/core/clock.ts`), and `advance(ms)` "moves time forward by `ms`",
 * waking sleepers "in order of their deadline". A span that is not a number of ms forward (NaN, a
 * negative one) must not wake sleepers whose deadline has not come nor move time back; a sleep of
 * NaN ms is due at once (as `systemClock`'s is) and must not turn the clock's time into NaN.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/testing/index.js';

describe('ManualClock: spans that are not a number of ms forward', () => {
  it('advance(NaN) wakes no sleeper before its deadline and leaves now() a number', async () => {
    const clock = new ManualClock(0);
    const woke: number[] = [];
    void clock.sleep(60_000).then(() => woke.push(clock.now()));
    await expect(clock.advance(Number.NaN)).rejects.toMatchObject({ code: 'HEADWAY_INVALID_OPTION' });
    expect(woke).toEqual([]);
    expect(clock.now()).toBe(0);
  });

  it('advance(-1000) never moves now() back', async () => {
    const clock = new ManualClock(5_000);
    await expect(clock.advance(-1_000)).rejects.toMatchObject({ code: 'HEADWAY_INVALID_OPTION' });
    expect(clock.now()).toBeGreaterThanOrEqual(5_000);
  });

  it('sleep(NaN) is due at once; the woken sleeper reads the clock’s time, not NaN', async () => {
    const clock = new ManualClock(1_000);
    const seen: number[] = [];
    void clock.sleep(Number.NaN).then(() => seen.push(clock.now()));
    await clock.advance(0);
    expect(seen).toEqual([1_000]);
  });
});

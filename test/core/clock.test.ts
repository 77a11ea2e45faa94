import { describe, expect, it } from 'vitest';
import { steadyNow, systemClock } from '../../src/core/clock.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { AbortError } from '../../src/errors.js';

describe('ManualClock', () => {
  it('wakes sleepers in deadline order, only when time reaches them', async () => {
    const clock = new ManualClock(0);
    const woke: string[] = [];
    void clock.sleep(300).then(() => woke.push(`c@${clock.now()}`));
    void clock.sleep(100).then(() => woke.push(`a@${clock.now()}`));
    void clock.sleep(100).then(() => woke.push(`b@${clock.now()}`));
    await clock.advance(99);
    expect(woke).toEqual([]);
    await clock.advance(250);
    expect(woke).toEqual(['a@100', 'b@100', 'c@300']);
    expect(clock.now()).toBe(349);
  });

  it('runs sleeps scheduled by woken work inside the same advance', async () => {
    const clock = new ManualClock(0);
    const times: number[] = [];
    void (async () => {
      for (let i = 0; i < 3; i++) {
        await clock.sleep(40);
        times.push(clock.now());
      }
    })();
    await clock.advance(200);
    expect(times).toEqual([40, 80, 120]);
  });

  it('rejects an aborted sleep at once with AbortError and forgets it', async () => {
    const clock = new ManualClock(0);
    const controller = new AbortController();
    const sleeping = clock.sleep(1000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toBeInstanceOf(AbortError);
    expect(clock.pending).toBe(0);
  });

  it('keeps wall and monotonic time apart', () => {
    const clock = new ManualClock(0, 1_000_000);
    clock.shiftWall(-5000);
    expect(clock.now()).toBe(0);
    expect(clock.wallNow()).toBe(995_000);
  });
});

describe('systemClock', () => {
  it('rejects an already-aborted sleep without starting a timer', async () => {
    await expect(systemClock.sleep(10_000, AbortSignal.abort())).rejects.toMatchObject({
      code: 'HEADWAY_ABORTED',
    });
  });

  it('cancels a pending sleep on abort', async () => {
    const controller = new AbortController();
    const sleeping = systemClock.sleep(60_000, controller.signal);
    controller.abort();
    await expect(sleeping).rejects.toBeInstanceOf(AbortError);
  });
});

describe('steadyNow', () => {
  it('counts a step back as no time passing, then flows on from there', () => {
    let raw = 1_000;
    const now = steadyNow({ now: () => raw, wallNow: () => raw, sleep: () => Promise.resolve() });
    expect(now()).toBe(1_000);
    raw = 1_500;
    expect(now()).toBe(1_500);
    raw = 1_500 - 3_600_000; // an hour back
    expect(now()).toBe(1_500);
    raw += 200;
    expect(now()).toBe(1_700);
    raw += 86_400_000; // a day forward is time that passed
    expect(now()).toBe(1_700 + 86_400_000);
  });
});

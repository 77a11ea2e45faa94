import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';

const bucket = { algorithm: 'token-bucket' as const, limit: 20, windowMs: 100 };

describe('memoryStore', () => {
  it('takes for every algorithm on its clock', async () => {
    const clock = new ManualClock();
    const store = memoryStore({ clock });
    for (const algorithm of [
      'token-bucket',
      'gcra',
      'fixed-window',
      'sliding-window-counter',
      'sliding-log',
    ] as const) {
      const limit = { algorithm, limit: 2, windowMs: 1000 };
      expect((await store.take(algorithm, limit, 1)).allowed).toBe(true);
      expect((await store.take(algorithm, limit, 1)).allowed).toBe(true);
      const refused = await store.take(algorithm, limit, 1);
      expect(refused.allowed).toBe(false);
      await clock.advance(refused.retryAfterMs);
      expect((await store.take(algorithm, limit, 1)).allowed).toBe(true);
    }
  });

  it('reserves for token-bucket ("200/s burst 20") and refuses reserve on window algorithms', async () => {
    const store = memoryStore({ clock: new ManualClock() });
    const waits: number[] = [];
    for (let i = 0; i < 22; i++) waits.push((await store.reserve('k', bucket, 1)).waitMs);
    expect(waits.slice(0, 20).every((w) => w === 0)).toBe(true);
    expect(waits.slice(20)).toEqual([5, 10]);
    await expect(
      store.reserve('w', { algorithm: 'fixed-window', limit: 1, windowMs: 1 }, 1),
    ).rejects.toMatchObject({
      code: 'HEADWAY_UNSUPPORTED_ALGORITHM',
    });
  });

  it('keeps a gate that only extends', async () => {
    const clock = new ManualClock();
    const store = memoryStore({ clock });
    expect(await store.gateWait('g')).toBe(0);
    expect(await store.holdGate('g', 1000)).toBe(1000);
    expect(await store.holdGate('g', 10)).toBe(1000);
    await clock.advance(400);
    expect(await store.gateWait('g')).toBe(600);
    expect(await store.gateWait('other')).toBe(0);
    await clock.advance(600);
    expect(await store.gateWait('g')).toBe(0);
  });

  it('reports exactly the ms asked for when a gate is extended at a fractional time', async () => {
    const clock = new ManualClock();
    await clock.advance(1234.56789); // (1234.56789 + 1000) − 1234.56789 is 1000.0000000000002 in floats
    const store = memoryStore({ clock });
    expect(await store.holdGate('g', 1000)).toBe(1000);
    expect(await store.holdGate('g', 2000)).toBe(2000);
  });

  it('stays within maxKeys over 1,000,000 distinct keys (LRU eviction)', async () => {
    const clock = new ManualClock();
    const store = memoryStore({ clock, maxKeys: 10_000 });
    let peak = 0;
    for (let i = 0; i < 1_000_000; i++) {
      await store.take(`k${i}`, bucket, 1);
      if (i % 1000 === 0) peak = Math.max(peak, store.size);
    }
    expect(Math.max(peak, store.size)).toBeLessThanOrEqual(10_000);
    expect(store.size).toBe(10_000);
  }, 30_000);

  it('evicts the least recently used key, not the oldest inserted', async () => {
    const store = memoryStore({ clock: new ManualClock(), maxKeys: 2 });
    const one = { algorithm: 'fixed-window' as const, limit: 1, windowMs: 1_000_000 };
    await store.take('a', one, 1);
    await store.take('b', one, 1);
    await store.take('a', one, 1); // touch a: b is now least recent
    await store.take('c', one, 1); // evicts b
    expect((await store.take('a', one, 1)).allowed).toBe(false);
    expect((await store.take('b', one, 1)).allowed).toBe(true);
  });

  it('drops keys whose state is back to fresh, and idle keys', async () => {
    const clock = new ManualClock();
    const store = memoryStore({ clock, idleMs: 10_000 });
    await store.take('a', bucket, 1);
    await clock.advance(10_000);
    await store.take('b', bucket, 1); // rotation: a is previous and fresh, so dropped
    expect(store.size).toBe(1);
    await store.take('c', { algorithm: 'fixed-window', limit: 1, windowMs: 1_000_000 }, 1);
    await clock.advance(10_000);
    await store.gateWait('x'); // rotation: b (fresh) dropped, c kept
    expect(store.size).toBe(1);
    await clock.advance(10_000);
    await store.gateWait('x'); // rotation: c idle for two generations, but its window still limits: kept
    expect(store.size).toBe(1);
    await clock.advance(1_000_000);
    await store.gateWait('x'); // rotation: c's window is over, so it is fresh and dropped
    await clock.advance(10_000);
    await store.gateWait('x');
    expect(store.size).toBe(0);
  });

  it('forgets every key on clear()', async () => {
    const store = memoryStore({ clock: new ManualClock() });
    await store.take('a', bucket, 1);
    await store.holdGate('a', 1000);
    store.clear();
    expect(store.size).toBe(0);
    expect(await store.gateWait('a')).toBe(0);
  });

  it('validates its options', () => {
    expect(() => memoryStore({ maxKeys: 0 })).toThrow(
      'Expected `maxKeys` to be a positive integer, got `0` (number)',
    );
    expect(() => memoryStore({ maxKeys: 1 })).toThrow('at least 2');
  });
});

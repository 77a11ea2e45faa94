import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';

/**
 * README: `memoryStore` "keeps each key as a few numbers … never more than `maxKeys` keys" — the
 * store's memory is bounded by its keys. A sliding-log key whose log alternates between one entry
 * (a slab entry) and more (an array) is given a fresh slab slot on every return to one entry, and
 * the old slots are never reused: one key's memory grows with its request count (until the
 * generation rotates, an hour by default).
 */
describe('memoryStore memory with one sliding-log key', () => {
  it('stays bounded while the key count stays at one', async () => {
    const clock = new ManualClock();
    const store = memoryStore({ clock });
    // Before slots were reused: ~3 MB of slabs for this one key (24 bytes per burst); the same
    // loop under `fixed-window` grows ~20 KB.
    const limit = { algorithm: 'sliding-log' as const, limit: 10, windowMs: 1000 };
    const before = process.memoryUsage().arrayBuffers;
    // A bursty client: two requests 100 ms apart, then a pause of a window.
    for (let i = 0; i < 100_000; i++) {
      store.takeNow!('k', limit, 1);
      await clock.advance(100);
      store.takeNow!('k', limit, 1);
      await clock.advance(1000);
    }
    expect(store.size).toBe(1);
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(grown).toBeLessThan(512 * 1024);
  });
});

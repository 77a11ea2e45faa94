/**
 * README "Options": `memoryStore` "never more than `maxKeys` keys; keys untouched for `2 · idleMs`
 * are dropped once their state is fresh again (a key that still limits is kept while there is
 * room), keys whose state is back to fresh are dropped early".
 *
 * The idle rotation carries limited keys into the new previous generation while that generation
 * has room, and keys whose state is fresh take none. (They did: the store held 4 of its 10 keys
 * after the rotation, 3 of them fresh, yet the one drained key was dropped and came back as a full
 * bucket: 100 units at once, 20 s after it was emptied on a bucket refilling 100 per minute.)
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';

describe('memoryStore idle rotation with fresh keys filling the generation', () => {
  it('keeps a drained key while the store has room, instead of fresh ones', async () => {
    const clock = new ManualClock(0);
    const store = memoryStore({ clock, maxKeys: 10, idleMs: 10_000 });
    const limit = { algorithm: 'token-bucket' as const, limit: 100, windowMs: 60_000 };
    // A client drains its bucket at 0 ms.
    for (let i = 0; i < 100; i++) expect(store.takeNow!('heavy', limit, 1).allowed).toBe(true);
    expect(store.takeNow!('heavy', limit, 1).allowed).toBe(false);
    // Five other clients make one request each after the first rotation (fresh again 0.6 s later).
    await clock.advance(10_000);
    for (const key of ['c1', 'c2', 'c3', 'c4', 'c5']) store.takeNow!(key, limit, 1);
    // The next rotation, on another client's request: the store holds far fewer than 10 keys.
    await clock.advance(10_000);
    store.takeNow!('c6', limit, 1);
    expect(store.size).toBeLessThan(10);
    // 20 s after it was drained, the heavy client has 100 · 20 / 60 = 33.3 units.
    let admitted = 0;
    for (let i = 0; i < 100; i++) if (store.takeNow!('heavy', limit, 1).allowed) admitted++;
    expect(admitted).toBe(33);
  });
});

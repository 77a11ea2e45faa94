import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';

/**
 * README: `memoryStore` "keys untouched for `2 · idleMs` are dropped, keys whose state is back to
 * fresh are dropped early"; `MemoryStoreOptions.idleMs`: "a key untouched for twice this long is
 * dropped"; module doc: "dropping it forgets its usage: keep `idleMs` above your longest window".
 * The generations rotate on the first call `idleMs` after the last rotation and the old previous
 * generation is dropped whole, whatever its keys' `expiresAt`: a key touched just before a rotation
 * is gone after only `idleMs` (not `2 · idleMs`) while it is still limited — even with `idleMs`
 * above the window, as the README asks.
 */
describe('memoryStore idle rotation', () => {
  it('does not bring a refused sliding-window-counter key back fresh before its reset (idleMs > windowMs)', async () => {
    const clock = new ManualClock(0);
    const store = memoryStore({ clock, idleMs: 1200 });
    const limit = { algorithm: 'sliding-window-counter' as const, limit: 10, windowMs: 1000 };
    await clock.advance(1199);
    for (let i = 0; i < 10; i++) expect(store.takeNow!('k', limit, 1).allowed).toBe(true);
    const refused = store.takeNow!('k', limit, 1);
    expect(refused).toMatchObject({ allowed: false, resetMs: 1801 }); // whole again at 3000
    // Other traffic, the last call at 2400: `k` untouched for 1201 ms, under 2 · idleMs, before its reset.
    await clock.advance(1);
    store.takeNow!('other', limit, 1);
    await clock.advance(1200);
    store.takeNow!('other', limit, 1);
    let admitted = 0;
    for (let i = 0; i < 10; i++) if (store.takeNow!('k', limit, 1).allowed) admitted++;
    // At 2400 the previous window's 10 still weigh 10 · (1 − 400/1000) = 6: 4 fit.
    expect(admitted).toBe(4);
  });

  it('keeps a token bucket key that owes reservations (idleMs > windowMs)', async () => {
    const clock = new ManualClock(0);
    const store = memoryStore({ clock, idleMs: 1200 });
    const limit = { algorithm: 'token-bucket' as const, limit: 1, windowMs: 1000 };
    await clock.advance(1199);
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) waits.push((await store.reserve('k', limit, 1)).waitMs);
    expect(waits).toEqual([0, 1000, 2000, 3000, 4000]); // the last unit is booked for 5199
    await clock.advance(1);
    await store.reserve('other', limit, 1);
    await clock.advance(1200);
    await store.reserve('other', limit, 1);
    // At 2400, behind the units booked up to 5199: the next is due at 6199.
    expect((await store.reserve('k', limit, 1)).waitMs).toBe(3799);
  });
});

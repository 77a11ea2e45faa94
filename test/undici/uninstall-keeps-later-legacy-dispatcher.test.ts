/**
 * README, "Pace code you don't own": "`uninstall()` does nothing when another dispatcher was
 * installed over Headway's since; that one stays." A library that depends on undici 6 or 7 (or
 * code that calls their `setGlobalDispatcher`) installs its dispatcher in
 * `Symbol.for('undici.globalDispatcher.1')` only — the slot Node 22's and 24's built-in `fetch`
 * read — exactly as those versions' `lib/global.js` does (`Object.defineProperty`, writable, not
 * configurable). No network, no timing.
 */
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { installGlobal } from '../../src/undici/index.js';
import { LEGACY_SLOT, restoreSlotsAfterEach, setLegacyGlobalDispatcher, slots } from './global-slots.js';

const closeAfter = restoreSlotsAfterEach();

describe('installGlobal: a dispatcher an older undici installed over Headway’s stays', () => {
  it('uninstall() leaves the `.1` slot (Node 22/24 built-in fetch) to the dispatcher installed after Headway', () => {
    const uninstall = installGlobal();
    // Another library, on undici 7, installs its own dispatcher after Headway.
    const theirs = new Agent();
    closeAfter(theirs);
    setLegacyGlobalDispatcher(theirs);

    uninstall();
    expect(slots[LEGACY_SLOT]).toBe(theirs);
  });
});

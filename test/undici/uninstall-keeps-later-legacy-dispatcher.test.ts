/**
 * README, "Pace code you don't own": "`uninstall()` does nothing when another dispatcher was
 * installed over Headway's since; that one stays." A library that depends on undici 6 or 7 (or
 * code that calls their `setGlobalDispatcher`) installs its dispatcher in
 * `Symbol.for('undici.globalDispatcher.1')` only — the slot Node 22's and 24's built-in `fetch`
 * read — exactly as those versions' `lib/global.js` does (`Object.defineProperty`, writable, not
 * configurable). No network, no timing.
 */
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { installGlobal } from '../../src/undici/index.js';

const LEGACY_SLOT = Symbol.for('undici.globalDispatcher.1');
const slots = globalThis as unknown as Record<symbol, unknown>;

/** undici 6/7's `setGlobalDispatcher`: writes the `.1` slot only. */
function setLegacyGlobalDispatcher(agent: unknown): void {
  Object.defineProperty(globalThis, LEGACY_SLOT, {
    value: agent,
    writable: true,
    enumerable: false,
    configurable: false,
  });
}

const before = { v2: getGlobalDispatcher(), v1: slots[LEGACY_SLOT] };
const agents: Agent[] = [];
afterEach(async () => {
  setGlobalDispatcher(before.v2);
  setLegacyGlobalDispatcher(before.v1);
  for (const agent of agents.splice(0)) await agent.close();
});

describe('installGlobal: a dispatcher an older undici installed over Headway’s stays', () => {
  it('uninstall() leaves the `.1` slot (Node 22/24 built-in fetch) to the dispatcher installed after Headway', () => {
    const uninstall = installGlobal();
    // Another library, on undici 7, installs its own dispatcher after Headway.
    const theirs = new Agent();
    agents.push(theirs);
    setLegacyGlobalDispatcher(theirs);

    uninstall();
    expect(slots[LEGACY_SLOT]).toBe(theirs);
  });
});

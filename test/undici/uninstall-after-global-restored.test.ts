/**
 * README, "Pace code you don't own": `uninstall(); // puts the previous global dispatcher back,
 * exactly`. A common pattern in test suites (and in libraries that swap the dispatcher for a while)
 * saves `getGlobalDispatcher()`, installs another (a `MockAgent`), then puts the saved one back
 * with `setGlobalDispatcher(saved)`. After that, Headway's dispatcher is the global one again, so
 * `uninstall()` must restore both slots — including `Symbol.for('undici.globalDispatcher.1')`, the
 * slot Node 22's and 24's built-in `fetch` read. undici 8's `setGlobalDispatcher` writes a new
 * legacy wrapper each time it is called, so the `.1` slot then holds a wrapper of Headway's
 * dispatcher that `uninstall()` mistakes for "an undici 6 or 7's installed over ours" and leaves.
 * No network: the base dispatcher is a MockAgent.
 */
import { getGlobalDispatcher, MockAgent, setGlobalDispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { installGlobal } from '../../src/undici/index.js';
import { LEGACY_SLOT, restoreSlotsAfterEach, slots } from './global-slots.js';

const closeAfter = restoreSlotsAfterEach();

function mockAgent(): MockAgent {
  const mock = new MockAgent();
  mock.disableNetConnect();
  mock.get('http://api.test').intercept({ path: '/item' }).reply(200, 'ok').persist();
  closeAfter(mock);
  return mock;
}

/** Sends a GET through the `.1` slot as Node 22's and 24's built-in `fetch` does (a legacy handler). */
function sendThroughLegacySlot(): Promise<number> {
  const legacy = slots[LEGACY_SLOT] as {
    dispatch(opts: object, handler: object): boolean;
  };
  return new Promise((resolve, reject) => {
    let status = 0;
    legacy.dispatch(
      { origin: 'http://api.test', path: '/item', method: 'GET' },
      {
        onConnect() {},
        onHeaders(statusCode: number) {
          status = statusCode;
          return true;
        },
        onData() {
          return true;
        },
        onComplete() {
          resolve(status);
        },
        onError: reject,
      },
    );
  });
}

describe('installGlobal: uninstall after the global dispatcher was swapped out and put back', () => {
  it('restores the `.1` slot (Node 22/24 built-in fetch), which then no longer paces', async () => {
    const base = mockAgent();
    setGlobalDispatcher(base);
    const legacyBefore = slots[LEGACY_SLOT];

    const uninstall = installGlobal();
    // A test (or a library) swaps the global dispatcher for a while, then puts the saved one back.
    const saved = getGlobalDispatcher();
    setGlobalDispatcher(mockAgent());
    setGlobalDispatcher(saved);

    uninstall();
    expect(getGlobalDispatcher()).toBe(base);

    // Node 22's and 24's built-in fetch read the `.1` slot: after uninstall() Headway must not see them.
    expect(await sendThroughLegacySlot()).toBe(200);
    expect(uninstall.stats().map((s) => s.key)).toEqual([]);
    expect(slots[LEGACY_SLOT]).toBe(legacyBefore);
  });
});

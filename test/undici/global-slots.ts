/**
 * The global dispatcher's two slots, as the tests of `installGlobal` drive and restore them:
 * undici 8's (`setGlobalDispatcher`) and the legacy `.1` slot Node 22's and 24's built-in `fetch`
 * read, which undici 6 and 7 write alone.
 */
import { getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterEach } from 'vitest';

export const LEGACY_SLOT = Symbol.for('undici.globalDispatcher.1');
export const slots = globalThis as unknown as Record<symbol, unknown>;

/** undici 6/7's `setGlobalDispatcher`: writes the `.1` slot only, as their `lib/global.js` does. */
export function setLegacyGlobalDispatcher(agent: unknown): void {
  Object.defineProperty(globalThis, LEGACY_SLOT, {
    value: agent,
    writable: true,
    enumerable: false,
    configurable: false,
  });
}

/**
 * Puts both slots back as they are now after each test of the file, and closes the dispatchers
 * handed to `closeAfter`.
 */
export function restoreSlotsAfterEach(): (dispatcher: { close(): Promise<unknown> }) => void {
  const before = { v2: getGlobalDispatcher(), v1: slots[LEGACY_SLOT] };
  const made: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    setGlobalDispatcher(before.v2);
    setLegacyGlobalDispatcher(before.v1);
    for (const dispatcher of made.splice(0)) await dispatcher.close();
  });
  return (dispatcher) => {
    made.push(dispatcher);
  };
}

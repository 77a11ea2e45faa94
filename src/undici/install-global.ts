/**
 * `installGlobal()`: paces every request of the process that goes through undici's global
 * dispatcher — the built-in `globalThis.fetch` and `undici.request` / `undici.fetch` — by composing
 * {@link headwayInterceptor} onto it. Returns the uninstall function (which also carries the
 * engine's events and stats).
 *
 * Version rules (see the README, "Pace code you don't own"): undici 8 keeps its dispatcher under
 * `Symbol.for('undici.globalDispatcher.2')` and mirrors it, wrapped for the legacy handler API,
 * under `Symbol.for('undici.globalDispatcher.1')`, the slot that Node 22's (undici 6) and Node 24's
 * (undici 7) built-in `fetch` read; Node 26's (undici 8) reads the first. `setGlobalDispatcher`
 * writes both, so one install covers every supported line. Uninstalling puts both slots back as
 * they were, byte for byte, rather than wrapping the old dispatcher again — but a dispatcher
 * installed over Headway's since stays, in both slots or (an undici 6 or 7's) in the legacy one.
 */
import { getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import type { EngineEvents } from '../client/engine.js';
import { headwayInterceptor, type InterceptorOptions } from './interceptor.js';

/** The slot Node's built-in `fetch` reads on Node 22 and 24. */
const LEGACY_SLOT = Symbol.for('undici.globalDispatcher.1');

/** Restores the dispatcher that was global before {@link installGlobal}; carries its events and stats. */
export interface GlobalUninstall extends EngineEvents {
  (): void;
}

/**
 * Composes the Headway interceptor onto the global dispatcher. Code with its own HTTP stack (`got`,
 * `axios`, anything on `node:http`/`node:https`) and calls given their own `dispatcher` are not seen.
 */
export function installGlobal(options: InterceptorOptions = {}): GlobalUninstall {
  const interceptor = headwayInterceptor(options);
  const slots = globalThis as unknown as Record<symbol, unknown>;
  const previous = getGlobalDispatcher();
  const previousLegacy = slots[LEGACY_SLOT];
  const paced = previous.compose(interceptor);
  setGlobalDispatcher(paced);
  /** What undici 8 wrote in the legacy slot for ours: an older undici may write over it alone. */
  const pacedLegacy = slots[LEGACY_SLOT];
  let installed = true;
  const uninstall = () => {
    // Only once, and only while ours is still the global one: a dispatcher installed over it stays.
    if (!installed || getGlobalDispatcher() !== paced) return;
    installed = false;
    // One an undici 6 or 7 installed over ours (it writes the legacy slot only) stays there too.
    const legacy = slots[LEGACY_SLOT];
    setGlobalDispatcher(previous);
    const restored = legacy === pacedLegacy ? previousLegacy : legacy;
    if (restored !== undefined) slots[LEGACY_SLOT] = restored;
  };
  return Object.assign(uninstall, interceptor);
}

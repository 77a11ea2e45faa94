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
 * writes both, so one install covers every supported line — unless an undici 6 or 7 installed a
 * dispatcher of its own in the legacy slot first, which stays (see {@link installGlobal}).
 * Uninstalling puts both slots back as they were, byte for byte, rather than wrapping the old
 * dispatcher again — but a dispatcher installed over Headway's since stays, in both slots or (an
 * undici 6 or 7's) in the legacy one.
 */
import { Dispatcher1Wrapper, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
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
  // A dispatcher an undici 6 or 7 installed (a proxy, say: it writes the legacy slot alone) stays
  // the one Node 22's and 24's `fetch` reach: replacing it would bypass it. Those calls are then
  // not paced, and a warning says so. A plain `Agent` there is the default one those `fetch`es
  // make for themselves (Node 24's does), and is replaced.
  const foreignLegacy =
    previousLegacy !== undefined &&
    !isUndici8Wrapper(previousLegacy) &&
    className(previousLegacy) !== 'Agent';
  setGlobalDispatcher(paced);
  if (foreignLegacy) {
    slots[LEGACY_SLOT] = previousLegacy;
    process.emitWarning(
      "installGlobal: an older undici's global dispatcher serves Node 22/24's built-in fetch; it is kept, and those calls are not paced (compose headwayInterceptor onto a dispatcher of that undici's instead)",
      { code: 'HEADWAY_LEGACY_DISPATCHER' },
    );
  }
  let installed = true;
  const uninstall = () => {
    // Only once, and only while ours is still the global one: a dispatcher installed over it stays.
    if (!installed || getGlobalDispatcher() !== paced) return;
    installed = false;
    // The legacy slot holds undici 8's wrapper of ours (written by any `setGlobalDispatcher` of
    // ours since, a save-and-restore included), or one an undici 6 or 7 installed over ours,
    // which stays there.
    const legacy = slots[LEGACY_SLOT];
    setGlobalDispatcher(previous);
    const restored = legacy === previousLegacy || isUndici8Wrapper(legacy) ? previousLegacy : legacy;
    if (restored !== undefined) slots[LEGACY_SLOT] = restored;
  };
  return Object.assign(uninstall, interceptor);
}

/**
 * True for what an undici 8's `setGlobalDispatcher` writes in the legacy slot: its wrapper of a
 * dispatcher of its own — this package's, or the copy Node 26 bundles (a class of its own, named
 * alike).
 */
const isUndici8Wrapper = (value: unknown): boolean =>
  value instanceof Dispatcher1Wrapper || className(value) === Dispatcher1Wrapper.name;

const className = (value: unknown): unknown =>
  (value as { constructor?: { name?: unknown } } | null)?.constructor?.name;

/**
 * README, "Pace code you don't own": `installGlobal` composes the interceptor onto the global
 * dispatcher, and "one `installGlobal` covers every line" because Node 22's and 24's built-in
 * `fetch` read `Symbol.for('undici.globalDispatcher.1')`. A library on undici 6 or 7 (or code that
 * calls their `setGlobalDispatcher`, e.g. with a `ProxyAgent`) installs its dispatcher in that slot
 * only — the case `test/undici/uninstall-keeps-later-legacy-dispatcher.test.ts` models and keeps on
 * uninstall. Installed before Headway, it must stay the dispatcher those `fetch`es reach, not be
 * replaced by undici 8's own for as long as Headway is installed (a proxy bypassed): Headway
 * cannot compose onto an older undici's dispatcher, so it leaves it and warns.
 * The slot is driven as Node 22/24's `fetch` drives it (`dispatch`); no network: a MockAgent.
 */
import { MockAgent, setGlobalDispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { installGlobal } from '../../src/undici/index.js';
import { LEGACY_SLOT, restoreSlotsAfterEach, setLegacyGlobalDispatcher, slots } from './global-slots.js';

const closeAfter = restoreSlotsAfterEach();

interface Dispatch {
  dispatch(opts: object, handler: object): boolean;
}

/** One GET through the `.1` slot, as Node 22/24's built-in fetch sends it; resolves with the body. */
function getThroughLegacySlot(path: string): Promise<string> {
  const legacy = slots[LEGACY_SLOT] as Dispatch;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    legacy.dispatch(
      { origin: 'http://api.test', path, method: 'GET' },
      {
        onRequestStart() {},
        onResponseStart() {},
        onResponseData(_controller: unknown, chunk: Buffer) {
          chunks.push(chunk);
        },
        onResponseEnd() {
          resolve(Buffer.concat(chunks).toString());
        },
        onResponseError(_controller: unknown, error: Error) {
          reject(error);
        },
      },
    );
  });
}

describe('installGlobal: a dispatcher an older undici installed before Headway', () => {
  it('stays the one Node 22/24’s built-in fetch reaches while Headway is installed, and a warning says those calls are not paced', async () => {
    const mock = new MockAgent();
    mock.disableNetConnect();
    mock
      .get('http://api.test')
      .intercept({ path: () => true })
      .reply(200, 'ok')
      .persist();
    closeAfter(mock);
    setGlobalDispatcher(mock);

    // Another library, on undici 7, installs its own dispatcher (a proxy, say) in the `.1` slot.
    const viaTheirs: string[] = [];
    const underneath = slots[LEGACY_SLOT] as Dispatch;
    const theirs = {
      dispatch(opts: { path: string }, handler: object) {
        viaTheirs.push(opts.path);
        return underneath.dispatch(opts, handler);
      },
      close: async () => {},
      destroy: async () => {},
    };
    setLegacyGlobalDispatcher(theirs);
    expect(await getThroughLegacySlot('/before')).toBe('ok');

    const warnings: Array<{ code?: string }> = [];
    const onWarning = (warning: { code?: string }) => warnings.push(warning);
    process.on('warning', onWarning);
    const uninstall = installGlobal();
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    process.off('warning', onWarning);
    expect(warnings.map((w) => w.code)).toContain('HEADWAY_LEGACY_DISPATCHER');
    expect(await getThroughLegacySlot('/during')).toBe('ok');
    expect(viaTheirs).toEqual(['/before', '/during']);
    uninstall();
    expect(slots[LEGACY_SLOT]).toBe(theirs);
  });
});

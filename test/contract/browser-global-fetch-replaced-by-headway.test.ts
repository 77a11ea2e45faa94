/**
 * README: `createFetch` is "a drop-in `fetch` wrapper", and its transport is "`globalThis.fetch` at
 * call time" (Client options, `fetch`). The first thing a page does with a drop-in `fetch` is
 * drop it in: `window.fetch = Headway.createFetch()`, so that every library of the page is paced.
 * Read at call time, the transport is then Headway itself: each attempt is a new Headway call of
 * the same key, which sends another, until the key's unconfigured start (4 calls in flight) is
 * spent by the nesting and the fifth waits in line for an answer that can never come. The call
 * never settles and nothing reaches the server (stats: inFlight 4, queued 1): no error, a hang.
 * Expected: the call settles: answered (the platform `fetch` does the sending) or, at the least,
 * rejected with an error that says why.
 *
 * Fixed on 2026-12-06 (session 25): a client whose transport is the global `fetch` of the moment
 * sends through the `fetch` it replaced when that global is the client itself (src/client/create-
 * fetch.ts). What the text above describes is how it behaved before.
 */
import { describe, expect, it } from 'vitest';
import { bundlePageForTests } from '../support/browser-page.js';

const { chromium, page, api } = bundlePageForTests({ rate: 100, burst: 20 });

describe('the browser bundle installed as the page’s fetch', () => {
  it.skipIf(!chromium)('window.fetch = createFetch(): a call is answered, not left pending', async () => {
    const out = await page().evaluate(async (url) => {
      // biome-ignore lint/suspicious/noExplicitAny: the bundle's global, in the page
      const headway = (globalThis as any).Headway;
      const platform = globalThis.fetch;
      const paced = headway.createFetch();
      globalThis.fetch = paced;
      try {
        // The call takes a few ms; 5 s without an answer is a hang, not a slow call.
        const result = await Promise.race([
          paced(url).then(
            (r: Response) => `status ${r.status}`,
            (e: Error) => `rejected ${e.name}`,
          ),
          new Promise((resolve) => setTimeout(() => resolve('pending after 5 s'), 5_000)),
        ]);
        const { inFlight, queued } = paced.stats()[0];
        return { result, inFlight, queued };
      } finally {
        globalThis.fetch = platform;
      }
    }, `${api().url}/items`);
    expect(out.result).not.toBe('pending after 5 s');
  });
});

/**
 * README (Example): retries "network errors", but "nor is an answer it will not follow (a redirect
 * with `redirect: 'error'`, too many redirects …) … those are the caller's, and close no gate." In
 * Node that holds (test/contract/redirect-refused-not-an-outage.test.ts). In a page, Chromium
 * rejects such a call with a bare `TypeError: Failed to fetch` and no `cause`, and
 * `fetchRefusedAnswer` (src/client/fetch-refusals.ts) recognises a refused answer only by undici's
 * `cause.message`: the browser bundle takes the server's redirect for a network failure, sends the
 * GET three times (each time the same redirect) and closes the origin's gate for an outage.
 *
 * Fixed on 2026-12-06 (session 25) for `redirect: 'error'`: a bare `TypeError` of a call that
 * asked for it is taken as fetch's refusal of the redirect (`fetchRefusedAnswer`). Open
 * (`it.fails`, README Limits): a redirect loop in a page fails with the same bare `TypeError` as a
 * lost network, and is still read as one (an outage, retried).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../server/loopback.js';
import { type BundlePage, bundlePage } from '../support/browser-page.js';
import { chromiumPath, noChromium } from '../support/chromium.js';

const chromium = chromiumPath();
if (!chromium) console.warn(noChromium);

let browser: BundlePage | undefined;
let api: { url: string; close: () => Promise<void> } | undefined;
/** Requests the API origin received, by path. */
const received = new Map<string, number>();

beforeAll(async () => {
  if (!chromium) return;
  // Another origin, with CORS: `/once/*` redirects to `/done`, `/loop/*` redirects to itself.
  api = await listen((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    received.set(path, (received.get(path) ?? 0) + 1);
    const cors = { 'access-control-allow-origin': '*' };
    if (path.startsWith('/once/')) res.writeHead(302, { ...cors, location: '/done' }).end();
    else if (path.startsWith('/loop/')) res.writeHead(302, { ...cors, location: path }).end();
    else res.writeHead(200, { ...cors, 'content-type': 'text/plain' }).end('done');
  });
  browser = await bundlePage(chromium);
}, 30_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/** Runs plain `fetch` and Headway's on `plainPath` and `pacedPath` of the API with `init`. */
function compare(plainUrl: string, pacedUrl: string, init: RequestInit) {
  return browser!.page.evaluate(
    async ({ plainUrl, pacedUrl, init }) => {
      const failure = (p: Promise<Response>) =>
        p.then(
          (r) => `status ${r.status}`,
          (e: Error) => e.name,
        );
      // biome-ignore lint/suspicious/noExplicitAny: the bundle's global, in the page
      const headway = (globalThis as any).Headway;
      // A fixed jitter: the backoff and the gate's spread do not depend on luck.
      const paced = headway.createFetch({ random: () => 0.5 });
      const retries: string[] = [];
      paced.onRetry((e: { reason: string }) => retries.push(e.reason));
      const plain = await failure(fetch(plainUrl, init));
      const result = await failure(paced(pacedUrl, init));
      return { plain, result, retries, gate: paced.stats()[0].gate.reason };
    },
    { plainUrl, pacedUrl, init },
  );
}

describe('the browser bundle, a redirect the browser will not follow', () => {
  it.skipIf(!chromium)("redirect: 'error': rejected as fetch rejects it, sent once, no outage", async () => {
    const out = await compare(`${api!.url}/once/plain`, `${api!.url}/once/paced`, { redirect: 'error' });
    expect(out.plain).toBe('TypeError');
    expect(out.result).toBe('TypeError');
    expect(received.get('/once/plain')).toBe(1);
    expect({ sent: received.get('/once/paced'), retries: out.retries, gate: out.gate }).toEqual({
      sent: 1,
      retries: [],
      gate: null,
    });
  });

  it.skipIf(!chromium).fails(
    'too many redirects: as many requests as fetch sends, no retry, no outage',
    async () => {
      const out = await compare(`${api!.url}/loop/plain`, `${api!.url}/loop/paced`, {});
      expect(out.plain).toBe('TypeError');
      expect(out.result).toBe('TypeError');
      const plainRequests = received.get('/loop/plain')!; // Chromium: the request and 20 redirects
      // Observed: 63 requests (three times 21), retries ['network-error', 'network-error'], gate 'outage'
      expect({ sent: received.get('/loop/paced'), retries: out.retries, gate: out.gate }).toEqual({
        sent: plainRequests,
        retries: [],
        gate: null,
      });
    },
  );
});

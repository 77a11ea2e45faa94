/**
 * `createFetch` is "a drop-in `fetch`" (src/client/create-fetch.ts), and the README ships a browser
 * bundle ("Headway's browser bundle … runs a fifth client with it … from the browser"). In a page,
 * `fetch('/api/items')` resolves the relative URL against the document's base URL, as every web
 * app calls its own API. Headway's `describeRequest` (src/client/request.ts) builds
 * `new URL(String(input))` with no base, so the same call through `createFetch` rejects with
 * `TypeError: Failed to construct 'URL': Invalid URL` before anything is sent (a `Request` is not
 * affected: its `.url` is already absolute).
 *
 * Fixed on 2026-12-06 (the fifth review round): a relative URL is read against the document's base
 * URL (or a worker's location), as `fetch` reads it; in Node it is still fetch's `TypeError`. What
 * the text above describes is how it behaved before.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientBundle } from '../../src/cli/demo/bundle.js';
import { chromiumPath, launchChromium, noChromium } from '../support/chromium.js';

const chromium = chromiumPath();
if (!chromium) console.warn(noChromium);

let server: Server;
let base = '';

beforeAll(async () => {
  const script = await clientBundle();
  server = createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<!doctype html><title>t</title><script>${script.replaceAll('</script', '<\\/script')}</script>`,
      );
    } else if (req.url === '/api/items') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"items":[]}');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the browser bundle with a relative URL', () => {
  it.skipIf(!chromium)('createFetch()("/api/items") answers as fetch("/api/items") does', async () => {
    const browser = await launchChromium(chromium!);
    try {
      const page = await browser.newPage();
      await page.goto(`${base}/`);
      const results = await page.evaluate(async () => {
        const settle = (p: Promise<Response>) =>
          p.then(
            (r) => r.status,
            (e: unknown) => `${(e as Error).name}: ${(e as Error).message}`,
          );
        // biome-ignore lint/suspicious/noExplicitAny: the bundle's global, in the page
        const headway = (globalThis as any).Headway;
        const paced = headway.createFetch();
        return { plain: await settle(fetch('/api/items')), headway: await settle(paced('/api/items')) };
      });
      expect(results).toEqual({ plain: 200, headway: 200 });
    } finally {
      await browser.close();
    }
  });
});

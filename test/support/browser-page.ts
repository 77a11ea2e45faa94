/**
 * A page that has loaded Headway's browser bundle (the global `Headway`, built as the demo builds
 * it), served from its own origin on 127.0.0.1 (port 0), in headless Chromium. `/bundle.js` serves
 * the bundle alone (for a worker's `importScripts`); `routes` adds paths of the page's own origin.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { clientBundle } from '../../src/cli/demo/bundle.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { chromiumPath, launchChromium, noChromium } from './chromium.js';

export interface BundlePage {
  page: Page;
  /** The page's origin, `http://127.0.0.1:PORT`. */
  origin: string;
  close(): Promise<void>;
}

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** Serves the bundle on a page of its own origin and opens it in Chromium at `chromium`. */
export async function bundlePage(chromium: string, routes: Record<string, Route> = {}): Promise<BundlePage> {
  const script = await clientBundle();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<!doctype html><title>t</title><script>${script.replaceAll('</script', '<\\/script')}</script>`,
      );
    } else if (path === '/bundle.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(script);
    } else if (routes[path]) routes[path](req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let browser: Browser | undefined;
  try {
    browser = await launchChromium(chromium);
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    const opened = browser;
    return {
      page,
      origin,
      close: async () => {
        await opened.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      },
    };
  } catch (error) {
    await browser?.close();
    server.close();
    server.closeAllConnections();
    throw error;
  }
}

/** What {@link bundlePageForTests} made for a file's tests: read inside a test, once they started. */
export interface PageForTests {
  /** Chromium's path, or `undefined` (the tests skip: `it.skipIf(!chromium)`). */
  chromium: string | undefined;
  page(): Page;
  /** The reference server (another origin), when one was asked for. */
  api(): RunningServer;
}

/**
 * The bundle page for the tests of one file, opened before them and closed after; with `server`,
 * a reference server of those options too. Without Chromium, nothing is made and one line says why.
 */
export function bundlePageForTests(server?: Parameters<typeof startServer>[0]): PageForTests {
  const chromium = chromiumPath();
  if (!chromium) console.warn(noChromium);
  let browser: BundlePage | undefined;
  let api: RunningServer | undefined;
  beforeAll(async () => {
    if (!chromium) return;
    if (server) api = await startServer(server);
    browser = await bundlePage(chromium);
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });
  return {
    chromium,
    page: () => (browser as BundlePage).page,
    api: () => api as RunningServer,
  };
}

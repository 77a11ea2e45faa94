import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientBundle, liveBundle } from './bundle.js';
import type { BrowserEvent } from './page/live.js';
import { livePageHtml } from './page-html.js';

/** The live page's server: the page, its scripts, the event stream, and the browser client's reports. */
export interface LivePage {
  url: string;
  /** Resolves when the first page has subscribed to the events. */
  connected: Promise<void>;
  /** Sends a server-sent event to every open page. */
  send(event: string, data: unknown): void;
  /** Called with each batch the browser client posts. */
  onBrowserEvents(listener: (events: BrowserEvent[]) => void): void;
  close(): Promise<void>;
}

/** The live page's static resources, by path. */
const PAGES = new Map<string, 'html' | 'headway' | 'live'>([
  ['/', 'html'],
  ['/headway.js', 'headway'],
  ['/live.js', 'live'],
]);

/** Serves the live page on `host:port` (0: a free port). */
export async function startLivePage(options: { host: string; port: number }): Promise<LivePage> {
  const [headwayJs, liveJs] = await Promise.all([clientBundle(), liveBundle()]);
  const html = livePageHtml();
  const pages = new Set<ServerResponse>();
  let listener: (events: BrowserEvent[]) => void = () => {};
  let markConnected = () => {};
  const connected = new Promise<void>((resolve) => {
    markConnected = resolve;
  });
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const page = PAGES.get(path);
    if (page !== undefined) {
      // GET, and HEAD (its head without the body); another method on a page is 405.
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return res.writeHead(405, { allow: 'GET, HEAD' }).end();
      const body = page === 'html' ? html : page === 'headway' ? headwayJs : liveJs;
      const type = page === 'html' ? 'text/html' : 'text/javascript';
      res.writeHead(200, {
        'content-type': `${type}; charset=utf-8`,
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-store',
      });
      return req.method === 'HEAD' ? res.end() : res.end(body);
    }
    if (path === '/favicon.ico') return res.writeHead(204).end();
    if (req.method === 'GET' && path === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(': connected\n\n');
      pages.add(res);
      req.on('close', () => pages.delete(res));
      markConnected();
      return;
    }
    if (req.method === 'POST' && path === '/browser-events') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        body += chunk;
      });
      req.on('end', () => {
        try {
          listener(JSON.parse(body) as BrowserEvent[]);
          res.writeHead(204).end();
        } catch {
          res.writeHead(400).end();
        }
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/`,
    connected,
    send(event, data) {
      const message = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
      for (const page of pages) page.write(message);
    },
    onBrowserEvents(next) {
      listener = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const page of pages) page.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

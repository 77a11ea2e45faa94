/**
 * The caller's controller carries the answer's raw headers, as undici's own does. undici 8's
 * handlers read them there: its `fetch` builds a Response's headers only from
 * `controller.rawHeaders` (an absent list counts as an empty one), and `request`/`stream`/
 * `pipeline` with `responseHeaders: 'raw'` return that list. Through the interceptor the caller's
 * controller is Headway's own, so it must carry the delivered attempt's `rawHeaders`. Node 26's
 * built-in `fetch` is undici 8's, so under `installGlobal` it reads them too. Real servers on
 * 127.0.0.1; no timing.
 */
import { Agent, request, fetch as undiciFetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { headwayInterceptor, installGlobal } from '../../src/undici/index.js';
import { listen } from '../server/loopback.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `/moved` redirects to `/final`; every other path answers 200 with a few headers. */
async function serve(): Promise<string> {
  const server = await listen((req, res) => {
    if (req.url === '/moved') res.writeHead(302, { location: '/final' }).end();
    else
      res
        .writeHead(200, { 'content-type': 'text/plain', 'x-answer': 'yes', 'set-cookie': ['a=1', 'b=2'] })
        .end(`at ${req.url}`);
  });
  cleanups.push(server.close);
  return server.url;
}

function paced() {
  const agent = new Agent();
  cleanups.push(() => agent.close());
  return agent.compose(headwayInterceptor());
}

describe('headwayInterceptor: the answer’s headers reach handlers that read the raw list', () => {
  it("undici's fetch through a composed dispatcher: the Response has the server's headers, and a redirect is followed", async () => {
    const url = await serve();
    const dispatcher = paced();
    const response = await undiciFetch(`${url}/item`, { dispatcher });
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(response.headers.get('x-answer')).toBe('yes');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.text()).toBe('at /item');

    const redirected = await undiciFetch(`${url}/moved`, { dispatcher });
    expect([redirected.status, await redirected.text()]).toEqual([200, 'at /final']);
  });

  it("undici.request with responseHeaders: 'raw' gets the raw header list", async () => {
    const url = await serve();
    const response = await request(`${url}/raw`, { dispatcher: paced(), responseHeaders: 'raw' });
    await response.body.dump();
    const raw = response.headers as unknown as string[];
    expect(raw).toEqual(expect.arrayContaining(['x-answer', 'yes', 'content-type', 'text/plain']));
  });
});

describe('installGlobal: the built-in fetch keeps the answer’s headers (Node 26: undici 8 reads the raw list)', () => {
  it('a Response has the server’s headers, and a redirect is followed', async () => {
    const url = await serve();
    const uninstall = installGlobal();
    cleanups.push(uninstall);
    const response = await globalThis.fetch(`${url}/item`);
    expect(response.headers.get('x-answer')).toBe('yes');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.text()).toBe('at /item');

    const redirected = await globalThis.fetch(`${url}/moved`);
    expect([redirected.status, await redirected.text()]).toEqual([200, 'at /final']);
  });
});

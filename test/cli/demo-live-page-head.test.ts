/**
 * The live page's server (`headway demo --live`): `HEAD` of a page it serves is that page's `GET`
 * without the body (RFC 9110 §9.3.2), and a method it does not serve on a path that exists is a
 * `405` with `Allow` (§15.5.6), not a `404` saying the page does not exist (§15.5.5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LivePage, startLivePage } from '../../src/cli/demo/live-server.js';

let live: LivePage;
beforeAll(async () => {
  live = await startLivePage({ host: '127.0.0.1', port: 0 });
}, 60_000);
afterAll(() => live?.close());

describe('headway demo --live: the page server and HEAD', () => {
  it.each([
    ['/', 'text/html'],
    ['/headway.js', 'text/javascript'],
    ['/live.js', 'text/javascript'],
  ])('HEAD %s answers 200 with the GET content type', async (path, type) => {
    const response = await fetch(new URL(path, live.url), { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain(type);
  });

  it('POST / (a path that exists) is 405 with Allow, not 404', async () => {
    const response = await fetch(new URL('/', live.url), { method: 'POST', body: 'x' });
    await response.arrayBuffer();
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toMatch(/GET/);
  });
});

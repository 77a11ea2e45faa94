import { describe, expect, it } from 'vitest';
import { putHeaders } from '../../src/server/node-head.js';
import { listen } from './loopback.js';

/**
 * Node's `writeHead(statusCode[, statusMessage][, headers])` takes the headers from the third
 * argument when the status message is not a string (`obj ??= reason`): `writeHead(200, undefined,
 * headers)` sends `headers`. After `putHeaders` (what `nodeRateLimit` does on every admitted
 * request) it still does: the handler's own headers are kept beside the limiter's.
 */
describe('putHeaders and writeHead(status, undefined, headers)', () => {
  it('keeps the handler’s headers, as Node’s own writeHead does', async () => {
    const server = await listen((_req, res) => {
      putHeaders(res, [['RateLimit', '"default";r=9;t=1']]);
      const statusMessage: string | undefined = undefined; // e.g. copied from an upstream that had none
      res.writeHead(201, statusMessage, { 'content-type': 'text/plain', 'x-handler': 'mine' }).end('x');
    });
    try {
      const response = await fetch(server.url);
      await response.text();
      expect(response.status).toBe(201);
      expect(response.headers.get('ratelimit')).toBe('"default";r=9;t=1');
      expect(response.headers.get('x-handler')).toBe('mine');
      expect(response.headers.get('content-type')).toBe('text/plain');
    } finally {
      await server.close();
    }
  });
});

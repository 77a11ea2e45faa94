/**
 * `headway serve --fail-for-ms` (startServer's `failForMs`) with its default CORS: the injected
 * outage answers are answers too, and a browser client can only see them if they carry CORS
 * headers (README, `headway serve`: "Answers carry CORS headers for browser clients").
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { startServer } from '../../src/server/serve.js';

describe('startServer failForMs: the outage answers keep the CORS headers', () => {
  it('a cross-origin GET during the outage gets its 503 with Access-Control-Allow-Origin', async () => {
    const clock = new ManualClock();
    const server = await startServer({ clock, failForMs: 60_000 });
    try {
      const response = await fetch(server.url, { headers: { origin: 'https://app.example' } });
      await response.arrayBuffer();
      expect(response.status).toBe(503);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await server.close();
    }
  });

  it('a preflight during the outage is answered 204 with the allowed methods, as at any other time', async () => {
    const clock = new ManualClock();
    const server = await startServer({ clock, failForMs: 60_000 });
    try {
      const response = await fetch(server.url, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'idempotency-key',
        },
      });
      await response.arrayBuffer();
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await server.close();
    }
  });
});

/**
 * The scrape endpoint (`startPrometheusEndpoint`, behind `headway serve --metrics-port`) serves
 * `/metrics`. A request line may carry its target in absolute form — `GET http://host:port/metrics`
 * — and RFC 9112 §3.2.2 says "a server MUST accept the absolute-form in requests" (a scrape through
 * a forward proxy arrives so). src/metrics/prometheus-endpoint.ts compares the raw `req.url` with
 * `/metrics`, so that scrape is answered 404; OpenTelemetry's own exporter server, and Headway's
 * server adapters (`NodeRequest.url`), read the path of an absolute-form target.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startPrometheusEndpoint } from '../../src/metrics/prometheus-endpoint.js';

/** Sends `GET <target>` over a raw socket; resolves the status code and the body. */
function get(port: number, target: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.end(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`),
    );
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), text }));
  });
}

describe('Prometheus endpoint: a request target in absolute form', () => {
  it('GET http://host:port/metrics is a scrape', async () => {
    const endpoint = await startPrometheusEndpoint(0);
    try {
      const counter = endpoint.meter.createCounter('headway.test.scraped');
      counter.add(1);
      const port = Number(new URL(endpoint.url).port);
      expect((await get(port, '/metrics')).status).toBe(200);
      const absolute = await get(port, endpoint.url);
      expect(absolute.status).toBe(200);
      expect(absolute.text).toContain('headway_test_scraped_total');
    } finally {
      await endpoint.close();
    }
  });
});

/**
 * A Prometheus scrape endpoint through OpenTelemetry's Prometheus exporter. The SDK and the exporter
 * (optional peers) are imported here, lazily, so nothing else in Headway requires them; the
 * endpoint is served by our own `node:http` server so that port 0 can pick a free port.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Meter } from '@opentelemetry/api';
import { meterName } from './names.js';

/** A running scrape endpoint. */
export interface PrometheusEndpoint {
  /** `http://host:port/metrics`. */
  url: string;
  /** Record on this meter to be scraped. */
  meter: Meter;
  /** Stops serving and shuts the meter provider down. */
  close(): Promise<void>;
}

/** Serves the metrics recorded on the returned meter as Prometheus text at `http://host:port/metrics`. */
export async function startPrometheusEndpoint(port: number, host = '127.0.0.1'): Promise<PrometheusEndpoint> {
  let sdk: typeof import('@opentelemetry/sdk-metrics');
  let exporterModule: typeof import('@opentelemetry/exporter-prometheus');
  try {
    [sdk, exporterModule] = await Promise.all([
      import('@opentelemetry/sdk-metrics'),
      import('@opentelemetry/exporter-prometheus'),
    ]);
  } catch (error) {
    throw new Error(
      'metrics need the optional peers: npm install @opentelemetry/api @opentelemetry/sdk-metrics @opentelemetry/exporter-prometheus',
      { cause: error },
    );
  }
  const exporter = new exporterModule.PrometheusExporter({ preventServerStart: true });
  const provider = new sdk.MeterProvider({ readers: [exporter] });
  const server = createServer((req, res) => {
    // The path, also of an absolute-form target (RFC 9112 §3.2.2: `GET http://host/metrics`).
    if (pathOf(req.url) === '/metrics') exporter.getMetricsRequestHandler(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: scrape /metrics\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${address.port}/metrics`,
    meter: provider.getMeter(meterName),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await provider.shutdown();
    },
  };
}

/** The path of a request target, origin-form or absolute-form; `null` when it is neither. */
function pathOf(target: string | undefined): string | null {
  try {
    return new URL(target ?? '/', 'http://localhost').pathname;
  } catch {
    return null;
  }
}

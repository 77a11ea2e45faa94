import { startPrometheusEndpoint } from '../metrics/prometheus-endpoint.js';
import { type MetricsSource, recordServerMetrics } from '../metrics/server-metrics.js';
import type { DecisionEvent } from '../server/options.js';

/** The metrics endpoint of `headway serve --metrics-port`. */
export interface ServeMetrics {
  url: string;
  /** The limiter's `onDecision`: counts each decision. */
  onDecision(event: DecisionEvent): void;
  /** Starts observing the running server's distinct refused keys. */
  observe(server: MetricsSource): void;
  close(): Promise<void>;
}

/** Starts the Prometheus endpoint on `port` with the server instruments on it. */
export async function startServeMetrics(port: number, host: string | undefined): Promise<ServeMetrics> {
  const endpoint = await startPrometheusEndpoint(port, host);
  const metrics = recordServerMetrics(endpoint.meter);
  return {
    url: endpoint.url,
    onDecision: metrics.onDecision,
    observe: (server) => void metrics.observe(server),
    close: endpoint.close,
  };
}

/**
 * Headway metrics through OpenTelemetry (`headway/metrics`): needs `@opentelemetry/api` (an
 * optional peer); without a registered SDK every instrument is a no-op.
 * @packageDocumentation
 */
import type { EngineEvents } from '../client/engine.js';
import { recordClientMetrics } from './client-metrics.js';
import { type MetricsOptions, meterOf } from './meter.js';
import { recordServerMetrics, type ServerMetrics } from './server-metrics.js';

export type { MetricsOptions } from './meter.js';
export type { DecisionValue } from './names.js';
export { attributes, instruments, meterName } from './names.js';
export type { MetricsSource, ServerMetrics } from './server-metrics.js';
export { decisionOf } from './server-metrics.js';

/**
 * Records a client's (`createFetch`, `headwayInterceptor` or `installGlobal`) pacing waits, retries, rate-limited answers, give-ups,
 * gate-closed time and retry budget. Returns a function that stops recording.
 *
 * @example
 * const fetch = createFetch({ rate: 10 });
 * const stop = clientMetrics(fetch); // on the global MeterProvider; a no-op without an SDK
 */
export function clientMetrics(fetch: EngineEvents, options?: MetricsOptions): () => void {
  return recordClientMetrics(fetch, meterOf(options));
}

/**
 * Counts a limiter's decisions by policy and observes its distinct refused keys.
 *
 * @example
 * const metrics = serverMetrics(); // on the global MeterProvider; a no-op without an SDK
 * const limiter = rateLimit({ policy: { rate: 10 }, onDecision: metrics.onDecision });
 * metrics.observe(limiter);
 */
export function serverMetrics(options?: MetricsOptions): ServerMetrics {
  return recordServerMetrics(meterOf(options));
}

/**
 * Headway metrics through OpenTelemetry (`headway/metrics`): needs `@opentelemetry/api` (an
 * optional peer); without a registered SDK every instrument is a no-op.
 * @packageDocumentation
 */
export { clientMetrics } from './client-metrics.js';
export type { MetricsOptions } from './meter.js';
export type { DecisionValue } from './names.js';
export { attributes, instruments, meterName } from './names.js';
export type { MetricsSource, ServerMetrics } from './server-metrics.js';
export { decisionOf, serverMetrics } from './server-metrics.js';

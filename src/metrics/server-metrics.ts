/**
 * Server metrics: a limiter's decisions and its distinct refused keys as OpenTelemetry instruments
 * (see {@link instruments}). It hooks in through the limiter's own `onDecision` option and its
 * `metrics()` snapshot, so the limiter itself knows nothing of OpenTelemetry.
 */
import type { BatchObservableResult, Meter } from '@opentelemetry/api';
import type { RateLimitMetrics } from '../server/metrics.js';
import type { DecisionEvent } from '../server/options.js';
import { attributes, type DecisionValue, instruments } from './names.js';

/** Anything with the limiter's `metrics()` snapshot: a `RateLimiter` or a running `startServer`. */
export interface MetricsSource {
  metrics(): RateLimitMetrics;
}

/** The binding {@link serverMetrics} returns. */
export interface ServerMetrics {
  /** Pass as the limiter's `onDecision` (call it from yours if you have one). */
  onDecision(event: DecisionEvent): void;
  /** Reports `source`'s distinct refused keys (`refusedKeys`) on every collection; returns a stop function. */
  observe(source: MetricsSource): () => void;
}

/** What the decision counter calls the outcome of `event`. */
export function decisionOf(event: DecisionEvent): DecisionValue {
  if (!event.decision) return 'store_error';
  if (event.decision.allowed) return 'allowed';
  return event.wouldRefuse ? 'would_refuse' : 'refused';
}

/**
 * Counts decisions by policy — allowed, refused, would-refuse (`mode: 'observe'`), store errors —
 * and observes the number of distinct keys refused, the alert signal, on `meter`
 * (`serverMetrics` in `headway/metrics` defaults it).
 */
export function recordServerMetrics(meter: Meter): ServerMetrics {
  const decisions = meter.createCounter(instruments.serverDecisions.name, {
    unit: instruments.serverDecisions.unit,
    description: "The limiter's decisions",
  });
  const refusedKeys = meter.createObservableGauge(instruments.serverRefusedKeys.name, {
    unit: instruments.serverRefusedKeys.unit,
    description: 'Distinct keys refused (or that would have been) within the metrics window',
  });
  return {
    onDecision: (event) =>
      decisions.add(1, { [attributes.policy]: event.policy, [attributes.decision]: decisionOf(event) }),
    observe(source) {
      const callback = (result: BatchObservableResult) =>
        result.observe(refusedKeys, source.metrics().refusedKeys);
      meter.addBatchObservableCallback(callback, [refusedKeys]);
      return () => meter.removeBatchObservableCallback(callback, [refusedKeys]);
    },
  };
}

/**
 * Server metrics: a limiter's decisions and its distinct refused keys as OpenTelemetry instruments
 * (see {@link instruments}). It hooks in through the limiter's own `onDecision` option and its
 * `metrics()` snapshot, so the limiter itself knows nothing of OpenTelemetry.
 */
import type { BatchObservableResult, Meter } from '@opentelemetry/api';
import { invalid } from '../core/validate.js';
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
  /**
   * Reports `source`'s distinct refused keys (`refusedKeys`) on every collection, summed with every
   * other limiter observed on the same meter; returns a stop function.
   */
  observe(source: MetricsSource): () => void;
}

/** What the decision counter calls the outcome of `event`. */
export function decisionOf(event: DecisionEvent): DecisionValue {
  if (!event.decision) return 'store_error';
  if (event.decision.allowed) return 'allowed';
  return event.wouldRefuse ? 'would_refuse' : 'refused';
}

/** The limiters observed on one meter, and the one callback that reports them all. */
const sourcesByMeter = new WeakMap<Meter, Set<MetricsSource>>();

/**
 * One batch callback per meter over every limiter observed on it, whichever binding observed it:
 * the refused keys are the sum over them (a callback per limiter would report the one series
 * twice in a collection, the last report replacing the other).
 */
function sourcesOn(meter: Meter): Set<MetricsSource> {
  let sources = sourcesByMeter.get(meter);
  if (sources) return sources;
  const refusedKeys = meter.createObservableGauge(instruments.serverRefusedKeys.name, {
    unit: instruments.serverRefusedKeys.unit,
    description: 'Distinct keys refused (or that would have been) within the metrics window',
  });
  const observed = new Set<MetricsSource>();
  meter.addBatchObservableCallback(
    (result: BatchObservableResult) => {
      let total = 0;
      for (const source of observed) total += source.metrics().refusedKeys;
      result.observe(refusedKeys, total);
    },
    [refusedKeys],
  );
  sources = observed;
  sourcesByMeter.set(meter, sources);
  return sources;
}

/**
 * Counts decisions by policy — allowed, refused, would-refuse (`mode: 'observe'`), store errors —
 * and observes the number of distinct keys refused, the alert signal, on `meter`
 * (`serverMetrics` in `headway/metrics` defaults it): summed over every limiter observed on the meter.
 */
export function recordServerMetrics(meter: Meter): ServerMetrics {
  const decisions = meter.createCounter(instruments.serverDecisions.name, {
    unit: instruments.serverDecisions.unit,
    description: "The limiter's decisions",
  });
  return {
    onDecision: (event) =>
      decisions.add(1, { [attributes.policy]: event.policy, [attributes.decision]: decisionOf(event) }),
    observe(source) {
      if (typeof (source as Partial<MetricsSource> | null)?.metrics !== 'function')
        invalid(
          'observe(source)',
          'a limiter (rateLimit) or a running startServer: something with metrics()',
          source,
        );
      // Its own entry, so observing one limiter twice (or from two bindings) counts it twice, and each stop removes one.
      const entry: MetricsSource = { metrics: () => source.metrics() };
      const sources = sourcesOn(meter);
      sources.add(entry);
      return () => {
        sources.delete(entry);
      };
    },
  };
}

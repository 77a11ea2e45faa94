/**
 * Client metrics: binds a `createFetch` client's events and `stats()` to OpenTelemetry instruments
 * (see {@link instruments} for names and units).
 */

import type { BatchObservableResult, Meter } from '@opentelemetry/api';
import type { EngineEvents } from '../client/engine.js';
import { invalid } from '../core/validate.js';
import { attributes, instruments } from './names.js';

const EVENT_METHODS = ['onThrottle', 'onRetry', 'onRateLimited', 'onGiveUp', 'stats'] as const;

/**
 * The wait histogram's buckets, in seconds: OpenTelemetry's HTTP duration buckets (the SDK's
 * default ones are shaped for milliseconds: every wait under 5 s would share one), extended to the
 * minutes a `Retry-After` can ask for.
 */
const WAIT_BUCKETS_S = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60, 120, 300, 600,
];

/**
 * Records the client's pacing waits, retries, rate-limited answers, give-ups, gate-closed time and
 * retry budget on `meter` (`clientMetrics` in `headway/metrics` defaults it): a `createFetch`
 * client, or the result of `headwayInterceptor` or `installGlobal` (the same events and stats).
 * Returns a function that stops this recording. A client recorded twice counts its events twice;
 * its gate-closed time and budget are reported once while either recording runs.
 */
export function recordClientMetrics(fetch: EngineEvents, meter: Meter): () => void {
  for (const method of EVENT_METHODS)
    if (typeof (fetch as unknown as Record<string, unknown> | null)?.[method] !== 'function')
      invalid(
        'clientMetrics(client)',
        'a Headway client (createFetch, headwayInterceptor or installGlobal)',
        fetch,
      );
  const wait = meter.createHistogram(instruments.clientWait.name, {
    unit: instruments.clientWait.unit,
    description: 'Waits a call was told to take before its next attempt',
    advice: { explicitBucketBoundaries: WAIT_BUCKETS_S },
  });
  const retries = meter.createCounter(instruments.clientRetries.name, {
    unit: instruments.clientRetries.unit,
    description: 'Retries sent',
  });
  const limited = meter.createCounter(instruments.clientRateLimited.name, {
    unit: instruments.clientRateLimited.unit,
    description: 'Answers that said the key is rate limited',
  });
  const giveUps = meter.createCounter(instruments.clientGiveUps.name, {
    unit: instruments.clientGiveUps.unit,
    description: 'Calls that stopped retrying',
  });
  const clients = observedOn(meter).clients;
  clients.set(fetch, (clients.get(fetch) ?? 0) + 1);
  const offs = [
    fetch.onThrottle((e) =>
      wait.record(e.waitMs / 1000, { [attributes.key]: e.key, [attributes.waitReason]: e.reason }),
    ),
    fetch.onRetry((e) => retries.add(1, { [attributes.key]: e.key, [attributes.retryReason]: e.reason })),
    fetch.onRateLimited((e) => limited.add(1, { [attributes.key]: e.key, [attributes.status]: e.status })),
    fetch.onGiveUp((e) => giveUps.add(1, { [attributes.key]: e.key, [attributes.giveUpReason]: e.reason })),
  ];
  let recording = true;
  return () => {
    if (!recording) return;
    recording = false;
    for (const off of offs) off();
    const left = (clients.get(fetch) ?? 1) - 1;
    if (left > 0) clients.set(fetch, left);
    else clients.delete(fetch);
  };
}

/** The clients recorded on one meter (each with its count of recordings), and the one callback that observes them all. */
interface Observed {
  clients: Map<EngineEvents, number>;
}

const observedByMeter = new WeakMap<Meter, Observed>();

/**
 * One batch callback per meter over every client recorded on it: a key's gate-closed time and
 * retry budget are the sums over the clients (a callback per client would report the same series
 * twice, the last report replacing the other). A key a client forgot (past 10,000 keys) starts
 * again from 0: to a backend, a counter reset.
 */
function observedOn(meter: Meter): Observed {
  let observed = observedByMeter.get(meter);
  if (observed) return observed;
  const gateClosed = meter.createObservableCounter(instruments.clientGateClosed.name, {
    unit: instruments.clientGateClosed.unit,
    description: "Time each key's gate has been closed",
  });
  const budget = meter.createObservableGauge(instruments.clientBudget.name, {
    unit: instruments.clientBudget.unit,
    description: "Retries each key's retry budget allows now",
  });
  const clients = new Map<EngineEvents, number>();
  meter.addBatchObservableCallback(
    (result: BatchObservableResult) => {
      const totals = new Map<string, { closedMs: number; budgetLeft: number }>();
      for (const client of clients.keys())
        for (const s of client.stats()) {
          const total = totals.get(s.key) ?? { closedMs: 0, budgetLeft: 0 };
          total.closedMs += s.gate.closedMs;
          total.budgetLeft += s.budgetLeft;
          totals.set(s.key, total);
        }
      for (const [key, total] of totals) {
        const labels = { [attributes.key]: key };
        result.observe(gateClosed, total.closedMs / 1000, labels);
        result.observe(budget, total.budgetLeft, labels);
      }
    },
    [gateClosed, budget],
  );
  observed = { clients };
  observedByMeter.set(meter, observed);
  return observed;
}

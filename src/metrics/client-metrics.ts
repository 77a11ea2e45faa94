/**
 * Client metrics: binds a `createFetch` client's events and `stats()` to OpenTelemetry instruments
 * (see {@link instruments} for names and units).
 */

import type { BatchObservableResult, Meter } from '@opentelemetry/api';
import type { HeadwayFetch } from '../client/create-fetch.js';
import { attributes, instruments } from './names.js';

/**
 * Records the client's pacing waits, retries, rate-limited answers, give-ups, gate-closed time and
 * retry budget on `meter` (`clientMetrics` in `headway/metrics` defaults it). Returns a function
 * that stops recording.
 */
export function recordClientMetrics(fetch: HeadwayFetch, meter: Meter): () => void {
  const wait = meter.createHistogram(instruments.clientWait.name, {
    unit: instruments.clientWait.unit,
    description: 'Waits a call was told to take before its next attempt',
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
  const gateClosed = meter.createObservableCounter(instruments.clientGateClosed.name, {
    unit: instruments.clientGateClosed.unit,
    description: "Time each key's gate has been closed",
  });
  const budget = meter.createObservableGauge(instruments.clientBudget.name, {
    unit: instruments.clientBudget.unit,
    description: "Retries each key's retry budget allows now",
  });

  const observe = (result: BatchObservableResult) => {
    for (const s of fetch.stats()) {
      const key = { [attributes.key]: s.key };
      result.observe(gateClosed, s.gate.closedMs / 1000, key);
      result.observe(budget, s.budgetLeft, key);
    }
  };
  meter.addBatchObservableCallback(observe, [gateClosed, budget]);
  const offs = [
    fetch.onThrottle((e) =>
      wait.record(e.waitMs / 1000, { [attributes.key]: e.key, [attributes.waitReason]: e.reason }),
    ),
    fetch.onRetry((e) => retries.add(1, { [attributes.key]: e.key, [attributes.retryReason]: e.reason })),
    fetch.onRateLimited((e) => limited.add(1, { [attributes.key]: e.key, [attributes.status]: e.status })),
    fetch.onGiveUp((e) => giveUps.add(1, { [attributes.key]: e.key, [attributes.giveUpReason]: e.reason })),
  ];
  return () => {
    for (const off of offs) off();
    meter.removeBatchObservableCallback(observe, [gateClosed, budget]);
  };
}

/**
 * The instruments Headway records, written once: names, units and attributes follow
 * OpenTelemetry's semantic-convention rules (dot-separated namespaces, snake_case words, UCUM
 * units — `s` for time, `{annotation}` for counts — and no `_total` suffix, which the Prometheus
 * exporter adds). `http.response.status_code` is the registered semantic-convention attribute;
 * the others live in the `headway.` namespace.
 */

/** Name of the meter (the instrumentation scope). */
export const meterName = 'headway';

/** Instrument names and units. */
export const instruments = {
  /** Histogram (s): each wait a call was told to take before its next attempt, by `headway.wait.reason` and `headway.key`. */
  clientWait: { name: 'headway.client.wait.duration', unit: 's' },
  /** Counter: retries, by `headway.retry.reason` and `headway.key`. */
  clientRetries: { name: 'headway.client.retries', unit: '{retry}' },
  /** Counter: answers that said the key is rate limited (429, or a retry hint on 403/503), by `headway.key`. */
  clientRateLimited: { name: 'headway.client.rate_limited', unit: '{response}' },
  /** Counter: calls that stopped retrying, by `headway.give_up.reason` and `headway.key`. */
  clientGiveUps: { name: 'headway.client.give_ups', unit: '{call}' },
  /** Observable counter (s): total time each key's gate has been closed. */
  clientGateClosed: { name: 'headway.client.gate.closed_time', unit: 's' },
  /** Observable gauge: whole retries each key's retry budget allows now. */
  clientBudget: { name: 'headway.client.retry_budget.remaining', unit: '{retry}' },
  /** Counter: the limiter's decisions, by `headway.policy` and `headway.decision`. */
  serverDecisions: { name: 'headway.server.decisions', unit: '{request}' },
  /** Observable gauge: distinct keys refused (or would-refuse) within the limiter's metrics window. */
  serverRefusedKeys: { name: 'headway.server.refused_keys', unit: '{key}' },
} as const;

/** Attribute names. */
export const attributes = {
  key: 'headway.key',
  waitReason: 'headway.wait.reason',
  retryReason: 'headway.retry.reason',
  giveUpReason: 'headway.give_up.reason',
  status: 'http.response.status_code',
  policy: 'headway.policy',
  decision: 'headway.decision',
} as const;

/** Values of `headway.decision`. */
export type DecisionValue = 'allowed' | 'refused' | 'would_refuse' | 'store_error';

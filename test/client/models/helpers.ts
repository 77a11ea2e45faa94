/**
 * Builders for model tests: an observation and a window as a response would report them.
 */
import type { Observation } from '../../../src/client/models/model.js';
import type { RateLimitPolicy } from '../../../src/signals/signal.js';

/** A request window with counters; unset fields as a server that did not say. */
export function window(fields: Partial<RateLimitPolicy>): RateLimitPolicy {
  return {
    name: 'default',
    quota: null,
    windowMs: null,
    remaining: null,
    resetInMs: null,
    partitionKey: null,
    unit: 'requests',
    ...fields,
  };
}

/** An answer to a send of one unit with `mark`, at `at`, nothing else in flight unless said. */
export function answer(fields: Partial<Observation> & Pick<Observation, 'at' | 'mark'>): Observation {
  const cost = fields.cost ?? 1;
  const inFlight = fields.inFlight ?? 0;
  return {
    sentAt: fields.at,
    cost,
    inFlight,
    inFlightBefore: inFlight + cost,
    outcome: 'answered',
    retryAfterMs: null,
    window: null,
    statedRate: null,
    statedPolicy: false,
    ...fields,
  };
}

/**
 * Builders for model tests: an observation and a window as a response would report them.
 */
import type { Observation } from '../../../src/client/models/model.js';
import { policy } from '../../signals/helpers.js';

/** A request window; unset fields as a server that did not say. */
export const window = policy;

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
    costStated: false,
    unmarked: 0,
    ...fields,
  };
}

/**
 * What a call costs, per unit: a call counts in every window the server reports — 1 in its
 * `requests` window, N in its `tokens` window — and waits until each of them has room.
 *
 * `cost(request)` states the estimate before the call is sent: a number (requests, the unit of
 * `rate` and `burst`), or units by name (`{ tokens: 430 }`, `{ requests: 1, tokens: 430 }`).
 * A unit it leaves out is learned from how that window's `remaining` moves ({@link LearnedCosts});
 * `requests` defaults to 1.
 */
import { ignoreRejection } from '../core/ignore-rejection.js';
import { InvalidCostError } from '../errors.js';

/** The unit of `rate`, `burst` and a numeric cost. */
export const REQUESTS = 'requests';

/** Units a call costs by unit name, as the server names its windows (`requests`, `tokens`, …). */
export interface CostByUnit {
  readonly requests?: number;
  readonly tokens?: number;
  readonly [unit: string]: number | undefined;
}

/** What `cost(request)` returns: requests, or units by name. */
export type Cost = number | CostByUnit;

/** A cost after validation: every unit it states, `requests` always among them. */
export type Costs = Readonly<Record<string, number>>;

const valid = (units: unknown): units is number =>
  typeof units === 'number' && Number.isFinite(units) && units > 0;

/**
 * Validates a stated cost: each unit a positive finite number, `requests` no larger than `burst`.
 * Throws {@link InvalidCostError} otherwise.
 */
export function normalizeCost(cost: unknown, burst: number | undefined): Costs {
  const capacity = burst ?? Number.POSITIVE_INFINITY;
  let costs: Record<string, number>;
  if (typeof cost === 'object' && cost !== null) {
    // Only a plain record of units: a promise (an `async` cost) or a `Map` has no units to read,
    // and would silently cost 1 request. A promise's rejection is handled: the error says why.
    if (Object.getPrototypeOf(cost) !== Object.prototype && Object.getPrototypeOf(cost) !== null) {
      ignoreRejection(cost);
      throw new InvalidCostError(cost as unknown as number, capacity);
    }
    costs = { [REQUESTS]: 1 };
    for (const [unit, units] of Object.entries(cost)) {
      if (units === undefined) continue;
      if (!valid(units)) throw new InvalidCostError(units as number, capacity, unit);
      costs[unit] = units;
    }
  } else {
    if (!valid(cost)) throw new InvalidCostError(cost as number, capacity);
    costs = { [REQUESTS]: cost };
  }
  if ((costs[REQUESTS] as number) > capacity) throw new InvalidCostError(costs[REQUESTS] as number, capacity);
  return costs;
}

/** Validates a settled (actual) cost; `undefined` when there is none or it is malformed. */
export function settledCost(cost: unknown): Costs | undefined {
  if (typeof cost === 'number') return valid(cost) ? { [REQUESTS]: cost } : undefined;
  if (typeof cost !== 'object' || cost === null) return undefined;
  const costs: Record<string, number> = {};
  for (const [unit, units] of Object.entries(cost)) if (valid(units)) costs[unit] = units;
  return Object.keys(costs).length > 0 ? costs : undefined;
}

/**
 * Hands a clone of `response` to `hook` once the caller has it (the caller's body is untouched and
 * nothing waits for the hook), and `apply`s the cost it settles. A hook that throws, or returns
 * nothing valid, settles nothing.
 */
export function settleLater(
  hook: (response: Response) => Cost | undefined | Promise<Cost | undefined>,
  response: Response,
  apply: (costs: Costs) => void,
): void {
  let copy: Response;
  try {
    copy = response.clone();
  } catch {
    return; // the body was already used: nothing to read
  }
  queueMicrotask(() => {
    // One catch for all of it: a hook that throws or rejects, or a result that throws when read,
    // settles nothing and raises nothing.
    Promise.resolve()
      .then(() => hook(copy))
      .then((cost) => {
        const costs = settledCost(cost);
        if (costs) apply(costs);
      })
      .catch(() => {});
  });
}

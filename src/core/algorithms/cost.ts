import { InvalidCostError } from '../../errors.js';

/**
 * The one cost check: throws {@link InvalidCostError} unless `0 < cost ≤ most` (a cost above the
 * limit, or the bucket's burst, could never be admitted). Returns `cost`.
 */
export function checkCost(cost: number, most: number): number {
  // `cost < Infinity` with `cost > 0` is `Number.isFinite`, in less bytecode (the stores' hot path inlines this).
  if (!(typeof cost === 'number' && cost > 0 && cost < Infinity && cost <= most)) {
    throw new InvalidCostError(cost, most);
  }
  return cost;
}

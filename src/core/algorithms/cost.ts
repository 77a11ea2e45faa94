import { InvalidCostError } from '../../errors.js';

/**
 * The one cost check: throws {@link InvalidCostError} unless `0 < cost ≤ most` (a cost above the
 * limit, or the bucket's burst, could never be admitted). Returns `cost`.
 */
export function checkCost(cost: number, most: number): number {
  if (!(typeof cost === 'number' && Number.isFinite(cost) && cost > 0 && cost <= most)) {
    throw new InvalidCostError(cost, most);
  }
  return cost;
}

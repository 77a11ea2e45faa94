import { InvalidCostError } from '../../errors.js';
import type { StoreLimit } from '../../stores/store.js';

/** Throws {@link InvalidCostError} unless `0 < cost ≤ limit.limit` (a larger cost could never be admitted). */
export function checkCost(limit: StoreLimit, cost: number): void {
  if (!(typeof cost === 'number' && Number.isFinite(cost) && cost > 0 && cost <= limit.limit)) {
    throw new InvalidCostError(cost, limit.limit);
  }
}

/**
 * A number per unit (`requests`, `tokens`, …): the pacer's counts of what was sent and what is in
 * flight. Most keys count requests alone: that unit is a field and the others a `Map` made on first
 * use, so a call of such a key reads and writes no hash table.
 */
import { REQUESTS } from './cost.js';

/** Numbers by unit name; `undefined` for a unit never set (or cleared). */
export class UnitCounts {
  #requests: number | undefined = undefined;
  #others: Map<string, number> | null = null;

  get(unit: string): number | undefined {
    return unit === REQUESTS ? this.#requests : this.#others?.get(unit);
  }

  set(unit: string, value: number): void {
    if (unit === REQUESTS) {
      this.#requests = value;
      return;
    }
    this.#others ??= new Map();
    this.#others.set(unit, value);
  }

  /** Forgets every unit. */
  clear(): void {
    this.#requests = undefined;
    this.#others?.clear();
  }
}

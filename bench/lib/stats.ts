/** Small numeric helpers shared by the scenarios. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `1234.5` → `1,235`. */
export const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : '—');

/** Fixed decimals, `—` for NaN. */
export const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '—');

export const pct = (n: number, digits = 1) => (Number.isFinite(n) ? `${(n * 100).toFixed(digits)} %` : '—');

/** `[a, b, c]` rotated by `by` places: alternates which client goes first from rep to rep. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  if (items.length === 0) return [];
  const k = ((by % items.length) + items.length) % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/** Largest wait the search will step through, so a wrong predicate cannot loop for long. */
const MAX_STEPS = 10_000;

/**
 * The smallest whole ms `d ≥ 0` for which `admitted(d)` holds, starting from an analytic
 * `estimate` and correcting it by single steps against the real predicate, so floating-point
 * rounding can never make a retry at `now + d` fail (or a retry at `now + d − 1` succeed).
 * `admitted` must be monotone: once true, true for every larger wait.
 */
export function exactWait(estimate: number, admitted: (waitMs: number) => boolean): number {
  let ms = Math.max(0, Math.ceil(estimate));
  for (let i = 0; i < MAX_STEPS && ms > 0 && admitted(ms - 1); i++) ms--;
  for (let i = 0; i < MAX_STEPS && !admitted(ms); i++) ms++;
  return ms;
}

/** Floating-point slack when comparing unit counts. */
export const EPSILON = 1e-9;

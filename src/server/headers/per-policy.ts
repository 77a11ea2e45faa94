import type { ResolvedPolicy } from '../policy.js';

/**
 * `make(policy)`, computed once per policy: the parts of a header that only the policy decides
 * (its name, `q`, `w`) are then one lookup per response instead of a number formatting and a
 * string concatenation. A limiter answers with the same few policy objects (`resolvePolicy`
 * results, cached per `Policy`), so the last one is checked first.
 */
export function perPolicy<T>(make: (policy: ResolvedPolicy) => T): (policy: ResolvedPolicy) => T {
  const made = new WeakMap<ResolvedPolicy, T>();
  let last: ResolvedPolicy | undefined;
  let lastValue: T;
  return (policy) => {
    if (policy !== last) {
      let value = made.get(policy);
      if (value === undefined) {
        value = make(policy);
        made.set(policy, value);
      }
      last = policy;
      lastValue = value;
    }
    return lastValue;
  };
}

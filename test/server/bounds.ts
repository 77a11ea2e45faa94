import type { AlgorithmName, StoreLimit } from '../../src/stores/store.js';

/** The documented bound on admitted cost over any closed interval of `t` ms, per algorithm. */
export const bounds: Record<AlgorithmName, (limit: StoreLimit, t: number) => number> = {
  'token-bucket': ({ limit, windowMs }, t) => limit + (limit * t) / windowMs,
  gcra: ({ limit, windowMs }, t) => limit + (limit * t) / windowMs,
  'fixed-window': ({ limit, windowMs }, t) => limit * (Math.ceil(t / windowMs) + 1),
  'sliding-window-counter': ({ limit, windowMs }, t) => limit * (Math.ceil(t / windowMs) + 1),
  'sliding-log': ({ limit, windowMs }, t) => limit * (Math.floor(t / windowMs) + 1),
};

import type { AlgorithmName } from '../../stores/store.js';
import type { LuaScript } from '../lua-script.js';
import { fixedWindowScript } from './fixed-window.js';
import { gcraScript } from './gcra.js';
import { slidingLogScript } from './sliding-log.js';
import { slidingWindowCounterScript } from './sliding-window-counter.js';
import { tokenBucketScript } from './token-bucket.js';

/** How one algorithm runs on Redis: its script and the suffixes of the keys it touches. */
export interface AlgorithmScript {
  readonly script: LuaScript;
  /** Key suffixes, in `KEYS` order; every key shares the `{key}` hash tag. */
  readonly keys: readonly string[];
  /** Whether the script implements `reserve` (mode argument `reserve`). */
  readonly reserves: boolean;
}

/** The script of every algorithm. */
export const algorithmScripts: Readonly<Record<AlgorithmName, AlgorithmScript>> = {
  'token-bucket': { script: tokenBucketScript, keys: ['tb'], reserves: true },
  gcra: { script: gcraScript, keys: ['gcra'], reserves: true },
  'fixed-window': { script: fixedWindowScript, keys: ['fw'], reserves: false },
  'sliding-window-counter': { script: slidingWindowCounterScript, keys: ['swc'], reserves: false },
  'sliding-log': { script: slidingLogScript, keys: ['sl', 'sl:meta'], reserves: false },
};

export { gateScript } from './gate.js';

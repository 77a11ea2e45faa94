import type { AlgorithmName } from '../../stores/store.js';
import { batchScript } from '../batch-script.js';
import type { LuaScript } from '../lua-script.js';
import { fixedWindowScript } from './fixed-window.js';
import { gcraScript } from './gcra.js';
import { slidingLogScript } from './sliding-log.js';
import { slidingWindowCounterScript } from './sliding-window-counter.js';
import { tokenBucketScript } from './token-bucket.js';

/** How one algorithm runs on Redis: its script and the suffixes of the keys it touches. */
export interface AlgorithmScript {
  /** The script's batch form ({@link batchScript}), the one the store sends. */
  readonly script: LuaScript;
  /** Key suffixes (one or two: the batch script passes `key` and `key2`); all share the `{key}` hash tag. */
  readonly keys: readonly string[];
  /** Whether the script implements `reserve` and `giveBack` (mode arguments `reserve`, `give-back`). */
  readonly reserves: boolean;
}

/** The script of every algorithm. */
export const algorithmScripts: Readonly<Record<AlgorithmName, AlgorithmScript>> = {
  'token-bucket': { script: batchScript(tokenBucketScript), keys: ['tb'], reserves: true },
  gcra: { script: batchScript(gcraScript), keys: ['gcra'], reserves: true },
  'fixed-window': { script: batchScript(fixedWindowScript), keys: ['fw'], reserves: false },
  'sliding-window-counter': {
    script: batchScript(slidingWindowCounterScript),
    keys: ['swc'],
    reserves: false,
  },
  'sliding-log': { script: batchScript(slidingLogScript), keys: ['sl', 'sl:meta'], reserves: false },
};

export { gateScript } from './gate.js';

import { fixedWindow } from './fixed-window.js';
import { gcra } from './gcra.js';
import type { AlgorithmName } from './names.js';
import { slidingLog } from './sliding-log.js';
import { slidingWindowCounter } from './sliding-window-counter.js';
import { tokenBucket } from './token-bucket.js';
import type { Algorithm } from './types.js';

/** Every algorithm by name. */
export const algorithms: Readonly<Record<AlgorithmName, Algorithm>> = {
  'token-bucket': tokenBucket,
  gcra,
  'fixed-window': fixedWindow,
  'sliding-window-counter': slidingWindowCounter,
  'sliding-log': slidingLog,
};

export { algorithmNames } from './names.js';

/**
 * Property tests run from one fixed seed, so every run checks the same cases and none fails by
 * luck. `FC_SEED=<n> npm test` explores other cases (a failure prints its seed and path).
 */
import fc from 'fast-check';

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 11) });

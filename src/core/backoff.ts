/**
 * Backoff delays as pure functions of the attempt and an injected `random` in [0, 1).
 * Full jitter is the default (AWS Architecture Blog, "Exponential Backoff and Jitter").
 */
import { invalid, nonNegative, onlyFields, positive } from './validate.js';

/** Backoff shape. */
export interface BackoffOptions {
  /** Delay scale of the first retry, in ms. @default 100 */
  baseMs: number;
  /** Largest delay, in ms. @default 10_000 */
  capMs: number;
}

/** Source of randomness in [0, 1). */
export type Random = () => number;

/** Default backoff: 100 ms base, 10 s cap. */
export const defaultBackoff: BackoffOptions = { baseMs: 100, capMs: 10_000 };

/** Validates a backoff shape; `name` is the option's path in errors. */
export function validateBackoff(options: BackoffOptions, name = 'backoff'): BackoffOptions {
  if (typeof options !== 'object' || options === null)
    invalid(name, 'an object like { baseMs, capMs }', options);
  onlyFields(options, defaultBackoff, `${name}.`);
  positive(`${name}.baseMs`, options.baseMs);
  nonNegative(`${name}.capMs`, options.capMs);
  return options;
}

/** The un-jittered ceiling for `attempt` (0-based): `min(cap, base·2^attempt)`. */
export function exponentialCeiling(attempt: number, options: BackoffOptions): number {
  return Math.min(options.capMs, options.baseMs * 2 ** Math.max(0, attempt));
}

/** Full jitter: uniform in `[0, min(cap, base·2^attempt))`. */
export function fullJitter(attempt: number, options: BackoffOptions, random: Random = Math.random): number {
  return Math.floor(random() * exponentialCeiling(attempt, options));
}

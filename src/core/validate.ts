import { InvalidOptionError } from '../errors.js';
import type { Clock } from './clock.js';
import { type BucketConfig, windowOf } from './limit.js';

/** Describes a value the way validation messages show it: `` `-1` (number) ``. */
function describe(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return `\`${text}\` (${value === null ? 'null' : typeof value})`;
}

/** The one-shape validation error: ``Expected `name` to be <what>, got `v` (type)``. */
export function invalidOption(name: string, what: string, value: unknown): InvalidOptionError {
  return new InvalidOptionError(name, `Expected \`${name}\` to be ${what}, got ${describe(value)}`);
}

/** Throws {@link invalidOption}. */
export function invalid(name: string, what: string, value: unknown): never {
  throw invalidOption(name, what, value);
}

/** Validates a positive finite number (> 0). */
export function positive(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    invalid(name, 'a positive finite number', value);
  }
  return value;
}

/** Validates a non-negative finite number (>= 0). */
export function nonNegative(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    invalid(name, 'a non-negative finite number', value);
  }
  return value;
}

/** Validates a non-negative integer. */
export function nonNegativeInteger(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    invalid(name, 'a non-negative integer', value);
  }
  return value;
}

/** Validates a positive integer. */
export function positiveInteger(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    invalid(name, 'a positive integer', value);
  }
  return value;
}

/** Validates a ratio in [0, 1]. */
export function ratio(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    invalid(name, 'a number between 0 and 1', value);
  }
  return value;
}

/** Validates one of a fixed set of strings. */
export function oneOf<T extends string>(name: string, value: unknown, choices: readonly T[]): T {
  if (typeof value !== 'string' || !choices.includes(value as T)) {
    invalid(name, `one of ${choices.map((c) => `'${c}'`).join(', ')}`, value);
  }
  return value as T;
}

/** Validates a function. */
export function func<T extends (...args: never[]) => unknown>(name: string, value: unknown): T {
  if (typeof value !== 'function') invalid(name, 'a function', value);
  return value as T;
}

/**
 * Merges user options over defaults, treating `undefined` as omitted (so `{ rate: undefined }`
 * keeps the default instead of erasing it). A name the defaults do not list is refused, named
 * after `where` (`hosts["h"].`): a misspelt option (`burts`) would otherwise mean its default.
 */
export function withDefaults<T extends object>(defaults: T, options: Partial<T> | undefined, where = ''): T {
  const merged = { ...defaults };
  if (options) {
    onlyFields(options, defaults, where);
    for (const [name, value] of Object.entries(options))
      if (value !== undefined) (merged as Record<string, unknown>)[name] = value;
  }
  return merged;
}

/**
 * Refuses a field of `options` that `fields` (an object whose keys are the known names) does not
 * have, named after `where` (`hosts["h"].`, `cors.`): a misspelt option (`burts`) would otherwise be
 * ignored, or mean its default. `undefined` values count as omitted.
 */
export function onlyFields(options: object, fields: object, where = ''): void {
  for (const [name, value] of Object.entries(options))
    if (value !== undefined && !Object.hasOwn(fields, name))
      invalid(`${where}${name}`, `one of the known options (${Object.keys(fields).join(', ')})`, value);
}

/**
 * Refuses a bucket whose refill of its burst takes no finite time (`rate: 1e-310`: every wait
 * overflows to `Infinity`, and a call behind one would wait for ever), naming `name` (its rate).
 */
export function finiteRefill(name: string, bucket: BucketConfig): void {
  if (!Number.isFinite(windowOf(bucket).windowMs))
    invalid(name, `a rate whose refill of \`burst\` (${bucket.burst}) takes a finite time`, bucket.rate);
}

/** Validates a {@link Clock}: an object whose `now`, `wallNow` and `sleep` are functions. */
export function clockOption(name: string, value: unknown): Clock {
  const c = value as Partial<Clock> | null;
  if (
    typeof c !== 'object' ||
    c === null ||
    ![c.now, c.wallNow, c.sleep].every((f) => typeof f === 'function')
  )
    invalid(name, 'a Clock (an object with now(), wallNow() and sleep(ms, signal))', value);
  return value as Clock;
}

import { StoreError } from '../errors.js';

/** Reads a script's reply as `count` numbers (integers, or `%.17g` strings for times). */
export function numbers(reply: unknown, count: number, key: string): number[] {
  if (Array.isArray(reply) && reply.length >= count) {
    const values = reply.slice(0, count).map((value) => Number(value));
    if (values.every((value) => Number.isFinite(value))) return values;
  }
  throw new StoreError(key, new TypeError(`Unexpected reply from a Headway Redis script: ${String(reply)}`));
}

/**
 * Reads a batch script's flat reply: `count` integers (every call's values in order), then the
 * Redis time of the run as a `%.17g` string. Returns that time in ms, with the integers made
 * numbers in place (a client with ioredis's `stringNumbers` answers them as strings), or throws a
 * `TypeError` naming the reply when it has another shape.
 */
export function batchTime(reply: unknown, count: number): number {
  if (Array.isArray(reply) && reply.length === count + 1) {
    let integers = true;
    for (let i = 0; i < count; i++) {
      if (typeof reply[i] !== 'number')
        reply[i] = typeof reply[i] === 'string' ? Number(reply[i]) : Number.NaN;
      if (!Number.isInteger(reply[i])) integers = false;
    }
    const now = Number(reply[count]);
    if (integers && Number.isFinite(now)) return now;
  }
  throw new TypeError(`Unexpected reply from a Headway Redis batch: ${String(reply)}`);
}

import { StoreError } from '../errors.js';

/** Reads a script's reply as `count` numbers (integers, or `%.17g` strings for times). */
export function numbers(reply: unknown, count: number, key: string): number[] {
  if (Array.isArray(reply) && reply.length >= count) {
    const values = reply.slice(0, count).map((value) => Number(value));
    if (values.every((value) => Number.isFinite(value))) return values;
  }
  throw new StoreError(key, new TypeError(`Unexpected reply from a Headway Redis script: ${String(reply)}`));
}

import { invalid } from '../core/validate.js';

/**
 * The Redis key of one piece of state: `prefix:{key}:suffix`. Every key of one logical `key`
 * shares the `{key}` hash tag, so a script that touches several runs on one Redis Cluster slot.
 */
export function redisKey(prefix: string, key: string, suffix: string): string {
  return `${prefix}:{${key}}:${suffix}`;
}

/** Validates a key prefix: a non-empty string without braces (they would move the hash tag). */
export function validatePrefix(prefix: unknown): string {
  if (typeof prefix !== 'string' || prefix.length === 0 || /[{}]/.test(prefix)) {
    invalid('prefix', 'a non-empty string without `{` or `}`', prefix);
  }
  return prefix;
}

/** Validates a limit key: a non-empty string (an empty `{}` hash tag would not tag at all). */
export function validateKey(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0) invalid('key', 'a non-empty string', key);
  return key;
}

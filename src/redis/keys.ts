import { createHash } from 'node:crypto';
import { invalid } from '../core/validate.js';

/** Longest key written as its own hash tag. */
const MAX_TAG_LENGTH = 200;
/** A surrogate not part of a pair (with the `u` flag a pair reads as one code point, not `Cs`). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The Redis key of one piece of state: `prefix:{key}:suffix`. Every key of one logical `key`
 * shares the `{key}` hash tag, so a script that touches several runs on one Redis Cluster slot.
 * A key with a brace (which would move the tag: `a}{1` and `a}{2` would share slot `a`) or longer
 * than 200 characters is tagged by its SHA-256 instead (`{#…}`), so a key function fed by clients
 * can neither crowd one slot nor store 100 KB names. So is a key that starts with `#`, the mark of
 * a hashed tag (no key can spell another's hashed tag and share its state), and one holding a lone
 * UTF-16 surrogate, which Redis would receive as U+FFFD, the same bytes as other such keys.
 */
export function redisKey(prefix: string, key: string, suffix: string): string {
  const illFormed = LONE_SURROGATE.test(key);
  const plain =
    key.length <= MAX_TAG_LENGTH &&
    !key.startsWith('#') &&
    !key.includes('{') &&
    !key.includes('}') &&
    !illFormed;
  // An ill-formed key is hashed by its UTF-16 code units: as UTF-8 its lone surrogates would all
  // be U+FFFD again. Its tag is marked apart (`#~`, `~` being no base64url digit): the same bytes
  // read as UTF-16 and as UTF-8 are two keys.
  const tag = plain
    ? key
    : `#${illFormed ? '~' : ''}${createHash('sha256')
        .update(key, illFormed ? 'utf16le' : 'utf8')
        .digest('base64url')}`;
  return `${prefix}:{${tag}}:${suffix}`;
}

/** Validates a key prefix: a non-empty string without braces (they would move the hash tag). */
export function validatePrefix(prefix: unknown): string {
  if (
    typeof prefix !== 'string' ||
    prefix.length === 0 ||
    /[{}]/.test(prefix) ||
    LONE_SURROGATE.test(prefix)
  ) {
    invalid('prefix', 'a non-empty string without `{`, `}` or a lone surrogate', prefix);
  }
  return prefix;
}

/** Validates a limit key: a non-empty string (an empty `{}` hash tag would not tag at all). */
export function validateKey(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0) invalid('key', 'a non-empty string', key);
  return key;
}

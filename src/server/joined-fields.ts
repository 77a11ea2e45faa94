/**
 * Fields whose value joins one already on the answer rather than replacing it (or being replaced):
 * the name lists `Vary` and `Access-Control-Expose-Headers`, which a handler or CORS middleware
 * sets too, and the IETF `RateLimit` / `RateLimit-Policy` lists, which an earlier limiter on the
 * same request sets (a minute quota and a daily one: the client must see both). The adapters ask
 * {@link isJoined} per field and {@link joinField} for the value.
 */
import { type List, serializeList } from 'structured-headers';
import { safeParseList } from '../signals/structured.js';

/** `name` is `lower` in any case, compared in place (no lowercased copy per header per request). */
function same(name: string, lower: string): boolean {
  if (name.length !== lower.length) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const l = lower.charCodeAt(i);
    if (c !== l && !(c >= 65 && c <= 90 && c + 32 === l)) return false;
  }
  return true;
}

/** True for `Vary` and `Access-Control-Expose-Headers`, the lists of field names (see {@link joinField}). */
export const isNameList = (name: string): boolean =>
  same(name, 'vary') || same(name, 'access-control-expose-headers');
const isItemList = (name: string): boolean => same(name, 'ratelimit') || same(name, 'ratelimit-policy');

/** True for a field whose value may join one already set (see {@link joinField}). */
export const isJoined = (name: string): boolean => isNameList(name) || isItemList(name);

/**
 * `value` joined to `existing` (as set; `null` or empty when unset) for a field of
 * {@link isJoined}, or `null` when the two do not join (the adapter's own rule then applies).
 * - `Vary` and `Access-Control-Expose-Headers` are lists of field names: the limiter's names
 *   (`Origin`; `RateLimit, Retry-After, …`) are added to what is there, never replace it. `Vary: *`
 *   varies on every field already; an exposed `*` is the literal name `*` on a credentialed
 *   request (Fetch Standard), so the names still follow it.
 * - `RateLimit` and `RateLimit-Policy` in the IETF form are lists of named items
 *   (`"minute";q=2;w=60`): ours are added after the ones there, replacing any of the same name.
 *   Other forms (draft-6, draft-7) state one window: they do not join.
 */
export function joinField(field: string, existing: string | null | undefined, value: string): string | null {
  if (existing == null || existing.trim() === '') return value;
  return isNameList(field) ? joinNames(field, existing, value) : joinItems(existing, value);
}

/**
 * What a limiter puts on a response that already holds `theirs` for `name` (`null`: unset) — the
 * rule every adapter that merges after the handler follows: `value` when unset; the join for a
 * joined field; else `null`, nothing (the handler's own field wins, and so does a join that adds
 * nothing).
 */
export function fieldOver(name: string, theirs: string | null, value: string): string | null {
  if (theirs === null) return value;
  if (!isJoined(name)) return null;
  const joined = joinField(name, theirs, value);
  return joined !== null && joined !== theirs ? joined : null;
}

function joinNames(field: string, existing: string, names: string): string {
  const have = existing.split(',').map((f) => f.trim().toLowerCase());
  if (have.includes('*') && same(field, 'vary')) return existing;
  let joined = existing;
  for (const name of names.split(',')) {
    const listed = name.trim();
    if (listed !== '' && !have.includes(listed.toLowerCase())) joined += `, ${listed}`;
  }
  return joined;
}

/** True when every member of `list` is an item named by a String (`"minute";q=2`). */
const named = (list: List): boolean => list.every(([item]) => typeof item === 'string');

/** Two lists of named items as one (ours replace theirs of the same name), else `null`. */
function joinItems(existing: string, value: string): string | null {
  const theirs = safeParseList(existing);
  const ours = safeParseList(value);
  if (theirs === null || ours === null || !named(theirs) || !named(ours)) return null;
  const names = new Set(ours.map(([item]) => item));
  return serializeList([...theirs.filter(([item]) => !names.has(item)), ...ours]);
}

/**
 * Total wrappers over the `structured-headers` RFC 9651 parser: a syntax error (or anything the
 * parser throws) gives `null`, and so does a field too long to be a rate-limit field, so the
 * parser never sees one.
 */
import type { BareItem, Dictionary, InnerList, Item, List } from 'structured-headers';
import { arrayBufferToBase64, parseDictionary, parseList } from 'structured-headers';
import { MAX_FIELD_LENGTH } from './fields.js';

/** An RFC 9651 List, or `null` on a syntax error. */
export function safeParseList(value: string | null): List | null {
  if (value === null || value.length > MAX_FIELD_LENGTH) return null;
  try {
    return parseList(value);
  } catch {
    return null;
  }
}

/** An RFC 9651 Dictionary, or `null` on a syntax error. */
export function safeParseDictionary(value: string | null): Dictionary | null {
  if (value === null || value.length > MAX_FIELD_LENGTH) return null;
  try {
    return parseDictionary(value);
  } catch {
    return null;
  }
}

/** The member as an Item, or `null` for an Inner List. */
export function asItem(member: Item | InnerList): Item | null {
  return Array.isArray(member[0]) ? null : (member as Item);
}

/**
 * A non-negative Integer, or `null`. (The parser returns Integers and Decimals alike as numbers,
 * so a Decimal with a zero fraction, `5.0`, cannot be told from `5` and is accepted.)
 */
export function nonNegativeInteger(value: BareItem | undefined): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** A Byte Sequence as base64, a String as is; `null` for other types. */
export function byteSequenceText(value: BareItem | undefined): string | null {
  if (typeof value === 'string') return value;
  if (value instanceof ArrayBuffer) return arrayBufferToBase64(value);
  return null;
}

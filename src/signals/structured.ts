/**
 * Total wrappers over the `structured-headers` RFC 9651 parser: a syntax error (or anything the
 * parser throws) gives `null`, and so does a field too long to be a rate-limit field, so the
 * parser never sees one.
 *
 * Lists take a fast path first: the shape the IETF drafts write (`"name";k=1;k2="s", …`: String
 * items whose parameters are Integers, Strings or bare keys) is read by one forward scan, several
 * times faster than the package, which reads anything else. The fast path
 * accepts a strict subset of RFC 9651 and gives the same result as the package on it (a property
 * test checks this); on anything else it steps aside.
 */
import type { BareItem, Dictionary, InnerList, Item, List, Parameters } from 'structured-headers';
import { arrayBufferToBase64, parseDictionary, parseList } from 'structured-headers';
import { append } from '../core/append.js';
import { MAX_FIELD_LENGTH } from './fields.js';

const SP = 0x20;
const HTAB = 0x09;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SEMICOLON = 0x3b;
const COMMA = 0x2c;
const EQUALS = 0x3d;
const MINUS = 0x2d;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isLcAlpha(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}

/** `lcalpha / DIGIT / "_" / "-" / "." / "*"`: the rest of a key. */
function isKeyChar(c: number): boolean {
  return isLcAlpha(c) || isDigit(c) || c === 0x5f || c === MINUS || c === 0x2e || c === 0x2a;
}

/**
 * The fast path: a List of String Items with Integer, String or Boolean-true parameters, read
 * exactly as `structured-headers` reads it (same whitespace rules, same limits: 15 Integer
 * digits, printable ASCII in Strings); `undefined` for any other input, which the package then
 * decides. A single forward scan: linear.
 */
export function fastParseList(text: string): List | undefined {
  const end = text.length;
  let pos = 0;
  while (text.charCodeAt(pos) === SP) pos++;
  let list: List | null = null;
  if (pos === end) return [];
  for (;;) {
    const name = readString(text, pos);
    if (name === undefined) return undefined;
    pos = stringEnd;
    const params: Parameters = new Map();
    while (text.charCodeAt(pos) === SEMICOLON) {
      pos++;
      while (text.charCodeAt(pos) === SP) pos++;
      const keyStart = pos;
      const first = text.charCodeAt(pos);
      if (!isLcAlpha(first) && first !== 0x2a) return undefined;
      pos++;
      while (pos < end && isKeyChar(text.charCodeAt(pos))) pos++;
      const key = text.slice(keyStart, pos);
      let value: BareItem = true;
      if (text.charCodeAt(pos) === EQUALS) {
        pos++;
        const c = text.charCodeAt(pos);
        if (c === QUOTE) {
          const string = readString(text, pos);
          if (string === undefined) return undefined;
          pos = stringEnd;
          value = string;
        } else {
          const negative = c === MINUS;
          if (negative) pos++;
          const digitsStart = pos;
          let integer = 0;
          for (let d = text.charCodeAt(pos); isDigit(d); d = text.charCodeAt(++pos))
            integer = integer * 10 + d - 0x30;
          const digits = pos - digitsStart;
          if (digits === 0 || digits > 15 || text.charCodeAt(pos) === 0x2e /* . */) return undefined;
          value = negative ? -integer : integer;
        }
      }
      params.set(key, value);
    }
    list = append(list, [name, params]);
    let c = text.charCodeAt(pos);
    while (c === SP || c === HTAB) c = text.charCodeAt(++pos);
    if (pos === end) return list;
    if (c !== COMMA) return undefined;
    c = text.charCodeAt(++pos);
    while (c === SP || c === HTAB) c = text.charCodeAt(++pos);
    if (pos === end) return undefined; // a trailing comma
  }
}

/** Where the last {@link readString} stopped: just past the closing quote. */
let stringEnd = 0;

/**
 * The String whose opening quote is at `start`, unescaped; `undefined` unless it is a valid
 * RFC 9651 String. Sets {@link stringEnd}.
 */
function readString(text: string, start: number): string | undefined {
  if (text.charCodeAt(start) !== QUOTE) return undefined;
  let out = '';
  let from = start + 1;
  let pos = from;
  while (pos < text.length) {
    const c = text.charCodeAt(pos);
    if (c === QUOTE) {
      stringEnd = pos + 1;
      return out + text.slice(from, pos);
    }
    if (c === BACKSLASH) {
      const next = text.charCodeAt(pos + 1);
      if (next !== QUOTE && next !== BACKSLASH) return undefined;
      out += text.slice(from, pos);
      from = pos + 1;
      pos += 2;
    } else if (c < 0x20 || c > 0x7e) return undefined;
    else pos++;
  }
  return undefined;
}

/** An RFC 9651 List, or `null` on a syntax error. */
export function safeParseList(value: string | null): List | null {
  if (value === null || value.length > MAX_FIELD_LENGTH) return null;
  try {
    return fastParseList(value) ?? parseList(value);
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

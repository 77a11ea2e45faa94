/**
 * Total wrappers over the `structured-headers` RFC 9651 parser: a syntax error (or anything the
 * parser throws) gives `null`, and so does a field too long to be a rate-limit field, so the
 * parser never sees one.
 *
 * {@link FieldScan} reads the pieces of RFC 9651 that rate-limit fields use (Strings, keys,
 * Integers, bare keys, the commas between members), exactly as the package reads them, for the
 * dedicated readers of those fields (`ietf-items.ts`): on anything else they step aside and the
 * package decides.
 */
import type { BareItem, Dictionary, InnerList, Item, List } from 'structured-headers';
import { arrayBufferToBase64, parseDictionary, parseList } from 'structured-headers';
import { MAX_FIELD_LENGTH } from './fields.js';

const SP = 0x20;
const HTAB = 0x09;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SEMICOLON = 0x3b;
const COMMA = 0x2c;
const EQUALS = 0x3d;
const MINUS = 0x2d;
const PERIOD = 0x2e;

/** Most digits an RFC 9651 Integer may have. */
export const MAX_INTEGER_DIGITS = 15;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isLcAlpha(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}

/** `lcalpha / DIGIT / "_" / "-" / "." / "*"`: the rest of a key. */
function isKeyChar(c: number): boolean {
  return isLcAlpha(c) || isDigit(c) || c === 0x5f || c === MINUS || c === PERIOD || c === 0x2a;
}

/**
 * A forward scan over one field value: each method reads one piece at {@link pos} and moves past
 * it, or returns `undefined` for input it does not read exactly as `structured-headers` does (same
 * whitespace rules, same limits: 15 Integer digits, printable ASCII in Strings). A reader that
 * gets `undefined` leaves the whole value to the package. Linear: nothing is read twice.
 */
export class FieldScan {
  readonly text: string;
  pos = 0;

  /** Starts past the leading spaces, as the package does. */
  constructor(text: string) {
    this.text = text;
    while (text.charCodeAt(this.pos) === SP) this.pos++;
  }

  get atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  /** A String, unescaped. */
  string(): string | undefined {
    const text = this.text;
    if (text.charCodeAt(this.pos) !== QUOTE) return undefined;
    let out = '';
    let from = this.pos + 1;
    let pos = from;
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c === QUOTE) {
        this.pos = pos + 1;
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

  /** True (and past it and the spaces after it) when a parameter follows: `;`. */
  parameter(): boolean {
    if (this.text.charCodeAt(this.pos) !== SEMICOLON) return false;
    this.pos++;
    while (this.text.charCodeAt(this.pos) === SP) this.pos++;
    return true;
  }

  /** A key (of a parameter or a Dictionary member). */
  key(): string | undefined {
    const text = this.text;
    const start = this.pos;
    const first = text.charCodeAt(start);
    if (!isLcAlpha(first) && first !== 0x2a) return undefined;
    let pos = start + 1;
    while (pos < text.length && isKeyChar(text.charCodeAt(pos))) pos++;
    this.pos = pos;
    return text.slice(start, pos);
  }

  /** After a key: `=` and an Integer or a String, or no `=` (Boolean true). */
  value(): number | string | true | undefined {
    if (this.text.charCodeAt(this.pos) !== EQUALS) return true;
    this.pos++;
    return this.text.charCodeAt(this.pos) === QUOTE ? this.string() : this.integer();
  }

  /** An Integer (not a Decimal: the package's Decimal arithmetic is left to it). */
  integer(): number | undefined {
    const text = this.text;
    let pos = this.pos;
    const negative = text.charCodeAt(pos) === MINUS;
    if (negative) pos++;
    const digitsStart = pos;
    let integer = 0;
    for (let d = text.charCodeAt(pos); isDigit(d); d = text.charCodeAt(++pos))
      integer = integer * 10 + d - 0x30;
    const digits = pos - digitsStart;
    if (digits === 0 || digits > MAX_INTEGER_DIGITS || text.charCodeAt(pos) === PERIOD) return undefined;
    this.pos = pos;
    return negative ? -integer : integer;
  }

  /**
   * After a member: optional whitespace, then the end (`false`) or a comma and the whitespace
   * before the next member (`true`); `undefined` for anything else, a trailing comma included.
   */
  nextMember(): boolean | undefined {
    const text = this.text;
    let pos = this.pos;
    let c = text.charCodeAt(pos);
    while (c === SP || c === HTAB) c = text.charCodeAt(++pos);
    if (pos >= text.length) {
      this.pos = pos;
      return false;
    }
    if (c !== COMMA) return undefined;
    c = text.charCodeAt(++pos);
    while (c === SP || c === HTAB) c = text.charCodeAt(++pos);
    this.pos = pos;
    return pos >= text.length ? undefined : true;
  }
}

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
  // Absent on most items: no `instanceof` (a lookup of `Symbol.hasInstance`) for nothing.
  if (value === undefined || !(value instanceof ArrayBuffer)) return null;
  return arrayBufferToBase64(value);
}

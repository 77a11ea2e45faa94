/**
 * Header normalisation: any header source → one case-insensitive, read-only view of the fields
 * a rate-limit reader cares about. One pass over the names; every other field is skipped. The
 * only state kept between calls is a bounded memo of how each distinct name is classified,
 * which changes no result.
 */

/** Field values longer than this are treated as absent: no rate-limit field is ever this long. */
export const MAX_FIELD_LENGTH = 4096;

/**
 * Plain header records, as `node:http`'s `IncomingHttpHeaders` or a test fixture. Names are
 * case-insensitive; an array is several field lines, joined with `, ` as RFC 9110 §5.3 joins them.
 */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Where headers can come from: a Fetch `Headers` object or a plain record. */
export type HeaderSource = Headers | HeaderRecord;

/** The normalised view: lower-case names, joined values, `null` when absent or absurdly long. */
export interface Fields {
  /** The field value, `null` when absent or longer than {@link MAX_FIELD_LENGTH}. `name` is lower case. */
  get(name: string): string | null;
  /** True when a field named `anthropic-ratelimit-*` was seen (Anthropic). */
  readonly anthropic: boolean;
  /** True when a field named `x-ratelimit-*-requests` / `*-tokens` was seen (OpenAI). */
  readonly openai: boolean;
}

const TOO_LONG = null;
/** The first of the two delay slots (`retry-after`, `retry-after-ms`: see {@link slotOf}). */
const RETRY_AFTER_SLOT = 4;
const DIGITS = /^[ \t]*0*([1-9]\d*|0)[ \t]*$/;
/** A delay past 2³¹ s, in seconds and in ms alike. */
const PAST_LONGEST_DELAY = '9999999999999999';

/**
 * A delay field longer than the cap: a number of more digits than the cap holds is a delay longer
 * still, which RFC 9111 §1.2.2 reads as 2³¹ s (never as no hint), and one padded with zeros is its
 * value; anything else stays too long (absent).
 */
function longDelay(value: string): string {
  const digits = DIGITS.exec(value)?.[1];
  if (digits === undefined) return value;
  return digits.length > PAST_LONGEST_DELAY.length ? PAST_LONGEST_DELAY : digits;
}

/** A hot name's slot, or {@link NOT_HOT}. */
type Slot = number;
const NOT_HOT = -1;

/**
 * The slot of a hot name (lower case), or {@link NOT_HOT}. The names every answer is asked for are
 * each kept in a slot of its own ({@link FieldMap}): no keyed store or lookup by name for them;
 * every other kept name goes to a record made on demand. A switch over string constants is
 * compiled in place (the six differ in length: a name is told from most at once), where a search
 * of an array of the names was a builtin call on every lookup.
 */
function slotOf(name: string): Slot {
  switch (name) {
    case 'ratelimit':
      return 0;
    case 'ratelimit-policy':
      return 1;
    case 'date':
      return 2;
    case 'age':
      return 3;
    case 'retry-after':
      return 4;
    case 'retry-after-ms':
      return 5;
    default:
      return NOT_HOT;
  }
}

/**
 * True for names worth keeping: the hot ones, Shopify's counter, Zendesk's limit, Azure's
 * `x-ms-retry-after-ms` and the four rate-limit prefixes.
 */
function relevant(name: string): boolean {
  return (
    slotOf(name) !== NOT_HOT ||
    name === 'x-shopify-shop-api-call-limit' ||
    name === 'x-rate-limit' ||
    name === 'x-ms-retry-after-ms' ||
    name.startsWith('ratelimit') ||
    name.startsWith('x-ratelimit-') ||
    name.startsWith('x-rate-limit-') ||
    name.startsWith('anthropic-ratelimit-')
  );
}

const OTHER = 0;
const ANTHROPIC = 1;
const OPENAI = 2;

/** A kept name, lower-cased, the vendor family its prefix announces, and its slot. */
type NameKind = readonly [name: string, family: typeof OTHER | typeof ANTHROPIC | typeof OPENAI, slot: Slot];

/**
 * Memo of {@link classifyUncached}: header names repeat from one response to the next, so the
 * lower-casing and prefix tests run once per distinct name. Bounded: cleared past 512 names.
 */
const NAME_KINDS = new Map<string, NameKind | null>();

function classify(rawName: string): NameKind | null {
  let kind = NAME_KINDS.get(rawName);
  if (kind === undefined) {
    if (NAME_KINDS.size >= 512) NAME_KINDS.clear();
    kind = classifyUncached(rawName);
    NAME_KINDS.set(rawName, kind);
  }
  return kind;
}

function classifyUncached(rawName: string): NameKind | null {
  const name = rawName.toLowerCase();
  if (!relevant(name)) return null;
  const slot = slotOf(name);
  if (name.startsWith('anthropic-')) return [name, ANTHROPIC, slot];
  if (name.startsWith('x-ratelimit-') && (name.endsWith('-requests') || name.endsWith('-tokens'))) {
    return [name, OPENAI, slot];
  }
  return [name, OTHER, slot];
}

/**
 * Every name kept starts with `ag`, `an`, `da`, `ra`, `re` or `x-` (any case): most fields
 * (`content-*`, `access-control-*`, `connection`…) stop at this cheap test.
 */
function mayMatter(name: string): boolean {
  const first = name.charCodeAt(0) | 0x20;
  const second = name.charCodeAt(1) | 0x20;
  if (first === 0x61) return second === 0x67 || second === 0x6e; // ag, an
  if (first === 0x64) return second === 0x61; // da
  if (first === 0x72) return second === 0x61 || second === 0x65; // ra, re
  return first === 0x78 && second === 0x2d; // x-
}

function isHeaders(source: HeaderSource): source is Headers {
  return typeof (source as Headers).forEach === 'function' && typeof (source as Headers).get === 'function';
}

/** A field not seen (a slot's value before its name is). */
const ABSENT = undefined;

/**
 * The fields kept, by lower-case name: the hot names ({@link slotOf}) in slots of their own, the
 * rest in a plain object made for the first of them (a kept name always starts with one of the
 * prefixes or exact names of {@link relevant}, so it can never be an `Object.prototype` property).
 * Made for every answer: a slot costs an answer less than a name filed in an object.
 */
class FieldMap implements Fields {
  readonly #hot: (string | null | undefined)[] = [ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT];
  #other: Record<string, string | null> | null = null;
  anthropic = false;
  openai = false;

  get(name: string): string | null {
    const slot = slotOf(name);
    if (slot !== NOT_HOT) return this.#hot[slot] ?? null;
    const other = this.#other;
    return other !== null && Object.hasOwn(other, name) ? (other[name] as string | null) : null;
  }

  /** Keeps a field whose name passed {@link mayMatter}. */
  add(rawName: string, value: string | null): void {
    // A hot name spelled as undici and `Headers` spell every name (lower case) skips the memo of
    // names: no hash lookup for the fields every answer carries.
    const hot = slotOf(rawName);
    if (hot !== NOT_HOT) {
      this.#addHot(hot, value);
      return;
    }
    const kind = classify(rawName);
    if (kind === null) return;
    const [name, family, slot] = kind;
    if (family === ANTHROPIC) this.anthropic = true;
    else if (family === OPENAI) this.openai = true;
    if (slot !== NOT_HOT) {
      this.#addHot(slot, value);
      return;
    }
    if (this.#other === null) this.#other = {};
    const other = this.#other;
    other[name] = joined(Object.hasOwn(other, name) ? other[name] : ABSENT, value);
  }

  #addHot(slot: Slot, value: string | null): void {
    if (slot >= RETRY_AFTER_SLOT && value !== null && value.length > MAX_FIELD_LENGTH)
      value = longDelay(value);
    this.#hot[slot] = joined(this.#hot[slot], value);
  }
}

/** A field's value once `value`, a line of it, is read after `before` (`ABSENT`: none yet). */
function joined(before: string | null | undefined, value: string | null): string | null {
  if (before !== ABSENT) value = before === TOO_LONG || value === TOO_LONG ? TOO_LONG : `${before}, ${value}`;
  return value !== TOO_LONG && value.length > MAX_FIELD_LENGTH ? TOO_LONG : value;
}

/** Joins the lines of one field with `, `, or gives `null` when the result would be too long. */
function joinLines(lines: readonly unknown[]): string | null {
  let total = 0;
  for (const line of lines) {
    if (typeof line !== 'string') return null;
    total += line.length + 2;
    if (total > MAX_FIELD_LENGTH + 2) return TOO_LONG;
  }
  return lines.join(', ');
}

/**
 * Reads a header source into {@link Fields}. Never throws: a source that cannot be read (a
 * throwing getter, a value that is not a string) gives the fields read so far.
 */
export function readFields(source: HeaderSource | null | undefined): Fields {
  const fields = new FieldMap();
  if (source === null || typeof source !== 'object') return fields;
  try {
    if (isHeaders(source)) {
      source.forEach((value, name) => {
        if (mayMatter(name)) fields.add(name, value);
      });
    } else {
      // for…in walks V8's enum cache: several times faster than Object.keys on every response.
      // Its own key tested with `Object.prototype.hasOwnProperty`, spelled out: V8 recognises that
      // call on the walked object and can check the object's shape instead of looking the name
      // up, which `Object.hasOwn` (or an alias of the method) does for every name kept.
      for (const name in source) {
        // biome-ignore lint/suspicious/noPrototypeBuiltins: the form V8 optimises in a for…in (above)
        if (!mayMatter(name) || !Object.prototype.hasOwnProperty.call(source, name)) continue;
        const value: unknown = source[name];
        if (typeof value === 'string') fields.add(name, value);
        else if (Array.isArray(value)) fields.add(name, joinLines(value));
      }
    }
  } catch {
    // An exotic source (a Proxy, a throwing getter): keep what was read.
  }
  return fields;
}

/** True for the optional whitespace of RFC 9110 §5.6.3: space and horizontal tab. */
function isOws(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** Trims optional whitespace (space, tab) from both ends; other characters are left to fail parsing. */
export function trimOws(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isOws(text.charCodeAt(start))) start++;
  while (end > start && isOws(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** Splits a joined field value on commas and trims each member. Linear in the length. */
export function splitMembers(text: string): string[] {
  return text.includes(',') ? text.split(',').map(trimOws) : [trimOws(text)];
}

/** Largest of all members read by `parse`, or `null` unless every member is valid (rule 3). */
export function largestOfAll(
  members: readonly string[],
  parse: (member: string) => number | null,
): number | null {
  let largest: number | null = null;
  for (const member of members) {
    const value = parse(member);
    if (value === null) return null;
    if (largest === null || value > largest) largest = value;
  }
  return largest;
}

/** Smallest of all members read by `parse`, or `null` unless every member is valid (rule 3). */
export function smallestOfAll(
  members: readonly string[],
  parse: (member: string) => number | null,
): number | null {
  let smallest: number | null = null;
  for (const member of members) {
    const value = parse(member);
    if (value === null) return null;
    if (smallest === null || value < smallest) smallest = value;
  }
  return smallest;
}

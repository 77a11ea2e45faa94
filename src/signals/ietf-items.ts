/**
 * The items of an IETF `RateLimit` or `RateLimit-Policy` value (rule 7): each String-named Item,
 * the first of each name, with the parameters the drafts define picked out.
 *
 * Two readers give the same items. {@link scanIetfItems} reads the shapes servers write
 * (`"default";r=50;t=30`, several items, Integer, String and bare-key parameters) in one forward
 * scan, with no List, Map or parameter object of the package's; it accepts a strict subset of
 * RFC 9651 and steps aside on anything else (a Token or Integer name, an Inner List, a Decimal, a
 * Byte Sequence, any syntax error), which {@link packageIetfItems} then reads with
 * `structured-headers`. A table test and a property test compare the two.
 */
import type { BareItem, Item } from 'structured-headers';
import { append } from '../core/append.js';
import { MAX_FIELD_LENGTH } from './fields.js';
import { asItem, FieldScan, safeParseList } from './structured.js';

/**
 * Every parameter name of the IETF fields, in one place: the drafts have renamed them before
 * (draft 08 replaced dictionaries with `q`/`w`/`r`/`t`) and a rename of `r`/`t` is discussed.
 */
export const IETF_PARAMETERS = {
  /** `RateLimit-Policy`: quota units per window (required Integer). */
  quota: 'q',
  /** `RateLimit-Policy`: window in seconds (optional Integer). */
  window: 'w',
  /** `RateLimit-Policy`: quota unit, `requests` when absent (optional String). */
  quotaUnit: 'qu',
  /** `RateLimit-Policy` and `RateLimit`: partition key (optional Byte Sequence). */
  partitionKey: 'pk',
  /** `RateLimit`: remaining quota units (required Integer). */
  remaining: 'r',
  /** `RateLimit`: seconds until the quota resets (optional Integer). */
  reset: 't',
} as const;

/** What a parameter of {@link IETF_PARAMETERS} is for. */
type IetfRole = keyof typeof IETF_PARAMETERS;

/**
 * A String-named Item of an IETF field: its name, and the value of each parameter the drafts
 * define (the last, when one repeats; `undefined` when absent). Other parameters are not kept.
 */
export type IetfItem = { readonly name: string } & { [R in IetfRole]: BareItem | undefined };

const ROLES: readonly (readonly [IetfRole, string])[] = Object.entries(IETF_PARAMETERS) as [
  IetfRole,
  string,
][];
const ROLE_OF = new Map<string, IetfRole>(ROLES.map(([role, key]) => [key, role]));

/** An item with every parameter absent: one shape for every item. */
export function newItem(name: string): IetfItem {
  return {
    name,
    quota: undefined,
    window: undefined,
    quotaUnit: undefined,
    partitionKey: undefined,
    remaining: undefined,
    reset: undefined,
  };
}

/** Adds `item` unless an item of its name came before (the first of each name counts). */
function addFirstOfName(items: IetfItem[] | null, item: IetfItem): IetfItem[] {
  if (items !== null) for (const before of items) if (before.name === item.name) return items;
  return append(items, item);
}

/**
 * The items of `text` by the dedicated scan; `undefined` when `text` is not one of the shapes it
 * reads (then {@link packageIetfItems} decides, a syntax error included).
 */
export function scanIetfItems(text: string): IetfItem[] | undefined {
  const scan = new FieldScan(text);
  if (scan.atEnd) return [];
  let items: IetfItem[] | null = null;
  for (;;) {
    const name = scan.string();
    if (name === undefined) return undefined;
    const item = newItem(name);
    while (scan.parameter()) {
      const key = scan.key();
      if (key === undefined) return undefined;
      const value = scan.value();
      if (value === undefined) return undefined;
      const role = ROLE_OF.get(key);
      if (role !== undefined) item[role] = value;
    }
    items = addFirstOfName(items, item);
    const more = scan.nextMember();
    if (more === undefined) return undefined;
    if (!more) return items;
  }
}

/** The items of `text` as `structured-headers` reads it; `null` on a syntax error. */
export function packageIetfItems(text: string): IetfItem[] | null {
  const list = safeParseList(text);
  if (list === null) return null;
  let items: IetfItem[] | null = null;
  for (const member of list) {
    const item: Item | null = asItem(member);
    if (item === null || typeof item[0] !== 'string') continue;
    const read = newItem(item[0]);
    for (const [role, key] of ROLES) read[role] = item[1].get(key);
    items = addFirstOfName(items, read);
  }
  return items ?? [];
}

/** The items of an IETF field value, in order; `null` when it is not a valid List (or too long to be one). */
export function ietfItems(text: string): IetfItem[] | null {
  if (text.length > MAX_FIELD_LENGTH) return null;
  return scanIetfItems(text) ?? packageIetfItems(text);
}

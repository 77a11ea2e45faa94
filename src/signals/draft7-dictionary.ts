/**
 * The draft-07 `RateLimit` Dictionary (`limit=100, remaining=50, reset=5`, rule 8): the number
 * of each of its three members, when the member is an Item holding one.
 *
 * Two readers give the same numbers. {@link scanDraft7} reads the shape servers write (members
 * `key=Integer`, no parameters) in one forward scan, with no Dictionary, Map or Item of the
 * package's; on anything else (a Decimal, a String, a bare key, an Inner List, parameters, any
 * syntax error) it steps aside and {@link packageDraft7} reads the value with `structured-headers`.
 * A table test and a property test compare the two.
 */
import { MAX_FIELD_LENGTH } from './fields.js';
import { asItem, FieldScan, safeParseDictionary } from './structured.js';

/** The numbers of a draft-07 `RateLimit`: each `null` when absent or not a number. */
export interface Draft7Numbers {
  limit: number | null;
  remaining: number | null;
  reset: number | null;
}

const none = (): Draft7Numbers => ({ limit: null, remaining: null, reset: null });

/** The numbers by the dedicated scan; `undefined` when `text` is not the shape it reads. */
export function scanDraft7(text: string): Draft7Numbers | undefined {
  const scan = new FieldScan(text);
  const numbers = none();
  if (scan.atEnd) return numbers;
  for (;;) {
    const key = scan.key();
    if (key === undefined) return undefined;
    const value = scan.value();
    if (typeof value !== 'number' || scan.parameter()) return undefined;
    // The last of a repeated key counts, as in the package's Dictionary.
    if (key === 'limit') numbers.limit = value;
    else if (key === 'remaining') numbers.remaining = value;
    else if (key === 'reset') numbers.reset = value;
    const more = scan.nextMember();
    if (more === undefined) return undefined;
    if (!more) return numbers;
  }
}

/** The numbers as `structured-headers` reads the Dictionary; all `null` on a syntax error. */
export function packageDraft7(text: string): Draft7Numbers {
  const dictionary = safeParseDictionary(text);
  const numberOf = (key: string): number | null => {
    const member = dictionary?.get(key);
    const item = member === undefined ? null : asItem(member);
    return item !== null && typeof item[0] === 'number' && Number.isFinite(item[0]) ? item[0] : null;
  };
  return { limit: numberOf('limit'), remaining: numberOf('remaining'), reset: numberOf('reset') };
}

/** The numbers of a draft-07 `RateLimit` value (all `null` when absent, unparsable or too long). */
export function draft7Numbers(value: string | null): Draft7Numbers {
  if (value === null || value.length > MAX_FIELD_LENGTH) return none();
  return scanDraft7(value) ?? packageDraft7(value);
}

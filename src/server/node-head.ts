import { type OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { systemDateText } from './date-text.js';
import type { HeaderList } from './headers/types.js';
import { isJoined, joinField } from './joined-fields.js';

const nodeWriteHead = ServerResponse.prototype.writeHead;

/** What `writeHead` takes as headers: an object, a flat `[name, value, …]` list or `[name, value]` pairs. */
type GivenHeaders = OutgoingHttpHeaders | readonly unknown[] | undefined | null;

/** Header names are case-insensitive (the length check spares the lowercasing almost always). */
const same = (a: unknown, b: string) =>
  typeof a === 'string' && a.length === b.length && (a === b || a.toLowerCase() === b.toLowerCase());

/**
 * The `Date` text Node writes itself on `res` (`sendDate`, now on the system clock), else
 * `undefined`: a limiter's `Date` equal to it can be left to Node, one header fewer to validate.
 */
export const nodeOwnDate = (res: ServerResponse): string | undefined =>
  res.sendDate ? systemDateText() : undefined;

/**
 * One flat header list: `given` (what the handler passed to `writeHead`), then each of `ours` the
 * handler did not set itself (by `setHeader`, or in `given`). Our `Date` is left to Node when it
 * is the text Node writes itself (`sendDate`, now on the system clock): the same field, one
 * header fewer to validate.
 */
function merged(res: ServerResponse, ours: HeaderList, given: GivenHeaders): unknown[] {
  const flat: unknown[] = [];
  if (Array.isArray(given)) {
    if (given.length > 0 && Array.isArray(given[0])) for (const pair of given) flat.push(pair[0], pair[1]);
    else for (let i = 0; i < given.length; i++) flat.push(given[i]);
  } else if (given) {
    for (const name in given) flat.push(name, (given as OutgoingHttpHeaders)[name]);
  }
  const theirs = flat.length;
  // One look for headers set by `setHeader` instead of one `hasHeader` (and lowercasing) per field.
  const anySet = res.getHeaderNames().length > 0;
  const nodeDate = nodeOwnDate(res);
  next: for (let i = 0; i < ours.length; i++) {
    const [name, value] = ours[i]!;
    if (value === nodeDate && name === 'Date') continue;
    // `Vary`, the exposed names and the IETF lists join the handler's (see `joinField`); any other
    // field of theirs wins.
    if (anySet && res.hasHeader(name)) {
      const joined = isJoined(name) && joinField(name, String(res.getHeader(name)), value);
      if (joined) res.setHeader(name, joined);
      continue;
    }
    for (let j = 0; j < theirs; j += 2)
      if (same(flat[j], name)) {
        const joined = isJoined(name) && joinField(name, String(flat[j + 1]), value);
        if (joined) flat[j + 1] = joined;
        continue next;
      }
    flat.push(name, value);
  }
  return flat;
}

/** Where {@link putHeaders} leaves the headers for {@link writeHeadWithRateLimit}. */
const pending = Symbol('headway.pendingHeaders');
type Pending = ServerResponse & { [pending]: HeaderList };

/** Node's `writeHead`, with the pending headers merged into the ones it is given. */
function writeHeadWithRateLimit(
  this: Pending,
  statusCode: number,
  reason?: string | GivenHeaders,
  given?: GivenHeaders,
): ServerResponse {
  // biome-ignore lint/suspicious/noExplicitAny: Node's writeHead accepts every shape `merged` returns
  const write = nodeWriteHead as (...args: any[]) => ServerResponse;
  // As Node's own: without a status message the headers are the second argument, or the third.
  return typeof reason === 'string'
    ? write.call(this, statusCode, reason, merged(this, this[pending], given))
    : write.call(this, statusCode, merged(this, this[pending], given ?? reason));
}

/**
 * Puts `headers` on a node response. On a `node:http` `ServerResponse` whose `writeHead` is
 * Node's own, they are handed to `writeHead` as one list when the head is written (a handler's
 * `writeHead(200, {...})`, or `end()` with none): Node then writes them in one pass, where each
 * `setHeader` would validate and file them one by one and turn the handler's own `writeHead` into
 * a merge, about 0.6 µs per request. A header the handler sets itself (same name, any case) wins,
 * as after `setHeader`; `res.getHeader` does not see the limiter's headers before the head is
 * written; a `Date` that is the one Node writes itself is left to Node. Any other response (a wrapped `writeHead`, HTTP/2, a test double) gets `setHeader`.
 */
export function putHeaders(res: ServerResponse, headers: HeaderList): void {
  if (res.writeHead !== nodeWriteHead || res.headersSent) {
    for (let i = 0; i < headers.length; i++) res.setHeader(headers[i]![0], headers[i]![1]);
    return;
  }
  (res as Pending)[pending] = headers;
  res.writeHead = writeHeadWithRateLimit as ServerResponse['writeHead'];
}

/**
 * Node 22's built-in `fetch` (undici 6) hands its dispatcher `content-length: "3, 3"` when the
 * caller set the header itself (its own value joined to fetch's). undici 6's core read the first
 * number; undici 8's core rejects it ("invalid content-length header", nodejs/undici#5500), so once
 * undici 8 owns the global dispatcher, such a `fetch` fails. RFC 9110 §8.6 lets a recipient replace
 * a list of identical values with one; that is all this does, and only to a record of headers
 * (fetch's shape). Any other value is left for undici to judge.
 */
import type { Dispatcher } from 'undici';

const IDENTICAL_LIST = /^\s*(\d+)\s*(?:,\s*\1\s*)+$/;

/** `opts` with a `content-length` list of one repeated number collapsed to it; else `opts` itself. */
export function withSingleContentLength(opts: Dispatcher.DispatchOptions): Dispatcher.DispatchOptions {
  const headers = opts.headers;
  if (
    headers === null ||
    typeof headers !== 'object' ||
    Array.isArray(headers) ||
    Symbol.iterator in headers
  ) {
    return opts;
  }
  const value = (headers as Record<string, unknown>)['content-length'];
  if (typeof value !== 'string' || !value.includes(',')) return opts;
  const single = IDENTICAL_LIST.exec(value);
  return single ? { ...opts, headers: { ...headers, 'content-length': single[1] } } : opts;
}

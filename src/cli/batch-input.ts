/**
 * The lines of a `headway batch` input: a URL per line, or an NDJSON request
 * `{"method","url","headers","body"}`. Blank lines and `#` comments are not requests.
 */

import { blockedPort } from '../client/fetch-refusals.js';

/** One request of the input. */
export interface BatchRequest {
  kind: 'request';
  /** 1-based line number in the input. */
  line: number;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Sent as is; a JSON value other than a string is sent as JSON. */
  body: string | undefined;
}

/** A line that is neither a URL nor a valid request. */
export interface MalformedLine {
  kind: 'malformed';
  line: number;
  reason: string;
}

/** A request, a malformed line, or `null` for a blank line or a comment. */
export type InputLine = BatchRequest | MalformedLine | null;

const METHOD = /^[A-Za-z]+$/;

function httpUrl(text: unknown): string {
  if (typeof text !== 'string') throw new Error('`url` must be a string');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`not a URL: ${JSON.stringify(text.slice(0, 200))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`not an http(s) URL: ${JSON.stringify(text.slice(0, 200))}`);
  if (blockedPort(url)) throw new Error(`fetch refuses it: port ${url.port} is blocked (a "bad port")`);
  return url.href;
}

function request(line: number, value: unknown): BatchRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('a JSON line must be an object with `url`');
  const r = value as Record<string, unknown>;
  const method = r.method ?? 'GET';
  if (typeof method !== 'string' || !METHOD.test(method)) throw new Error('`method` must be a method name');
  const headers: Record<string, string> = {};
  if (r.headers !== undefined) {
    if (typeof r.headers !== 'object' || r.headers === null || Array.isArray(r.headers))
      throw new Error('`headers` must be an object of strings');
    for (const [name, v] of Object.entries(r.headers)) {
      if (typeof v !== 'string') throw new Error(`header ${JSON.stringify(name)} must be a string`);
      headers[name.toLowerCase()] = v;
    }
  }
  let body: string | undefined;
  if (typeof r.body === 'string') body = r.body;
  else if (r.body !== undefined && r.body !== null) {
    body = JSON.stringify(r.body);
    headers['content-type'] ??= 'application/json';
  }
  const url = httpUrl(r.url);
  // What `fetch` refuses before sending (a header name or value it cannot carry, `TRACE` or
  // `CONNECT`, a body on a GET or HEAD, a blocked port) is a malformed line, never a request
  // recorded as failed.
  try {
    new Request(url, { method, headers, body: body ?? null });
  } catch (error) {
    throw new Error(`fetch refuses it: ${(error as Error).message}`);
  }
  return { kind: 'request', line, method: method.toUpperCase(), url, headers, body };
}

/** Reads input line number `line` (1-based); never throws. */
export function parseInputLine(text: string, line: number): InputLine {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return null;
  try {
    if (trimmed.startsWith('{')) {
      let value: unknown;
      try {
        value = JSON.parse(trimmed);
      } catch (error) {
        throw new Error(`invalid JSON: ${(error as Error).message}`);
      }
      return request(line, value);
    }
    return { kind: 'request', line, method: 'GET', url: httpUrl(trimmed), headers: {}, body: undefined };
  } catch (error) {
    return { kind: 'malformed', line, reason: (error as Error).message };
  }
}

/** Every line of `text`, read. */
export function parseInput(text: string): InputLine[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((l, i) => parseInputLine(l.endsWith('\r') ? l.slice(0, -1) : l, i + 1));
}

/**
 * What the client needs to know about a call before sending it, read once from `fetch`'s
 * arguments without building a `Request` (which would copy the body).
 */

/** A call as `key(request)` and `cost(request)` see it. */
export interface RequestDescription {
  url: URL;
  /** Upper-case method. */
  method: string;
  headers: Headers;
  /** The body when it is a string (a JSON API's request: what a cost estimate reads), else `undefined`. */
  body: string | undefined;
}

/**
 * True for the methods RFC 9110 defines as idempotent (TRACE left out: nobody retries it). A
 * switch over string constants, compiled in place: no hash lookup on every call.
 */
function isIdempotentMethod(method: string): boolean {
  switch (method) {
    case 'GET':
    case 'HEAD':
    case 'OPTIONS':
    case 'PUT':
    case 'DELETE':
      return true;
    default:
      return false;
  }
}

/**
 * True when `input` is a `Request`: the global class's, or another implementation's (undici's own
 * package exports a `Request` that is no `instanceof` the global one). Read by its shape: a string
 * `url` and `method`, `headers` with a `get`, and a `clone` method — which a plain object of the
 * same fields (a config `{ url, method, headers }`, refused by `fetch` as it is) lacks.
 */
export function isRequest(input: unknown): input is Request {
  if (typeof Request !== 'undefined' && input instanceof Request) return true;
  if (typeof input !== 'object' || input === null || input instanceof URL) return false;
  const r = input as Partial<Request>;
  return (
    typeof r.url === 'string' &&
    typeof r.method === 'string' &&
    typeof r.clone === 'function' &&
    typeof r.headers?.get === 'function'
  );
}

/**
 * The base a relative URL is read against, as `fetch` reads it: the document's base URL in a
 * page, the worker's location in a worker; none in Node (where `fetch` refuses a relative URL).
 */
function baseUrl(): string | undefined {
  const scope = globalThis as { document?: { baseURI?: string }; location?: { href?: string } };
  return scope.document?.baseURI ?? scope.location?.href;
}

/**
 * Reads url, method and headers from fetch's arguments. Throws fetch's own `TypeError` on a bad URL.
 * `headers` is built on first use: most calls never need it.
 */
export function describeRequest(
  input: string | URL | Request,
  init: RequestInit | undefined,
): RequestDescription {
  const asRequest = isRequest(input);
  const url = input instanceof URL ? input : new URL(asRequest ? input.url : String(input), baseUrl());
  const method = (init?.method ?? (asRequest ? input.method : 'GET')).toUpperCase();
  let headers: Headers | undefined;
  return {
    url,
    method,
    body: typeof init?.body === 'string' ? init.body : undefined,
    get headers() {
      headers ??= new Headers(init?.headers ?? (asRequest ? input.headers : undefined));
      return headers;
    },
  };
}

/** True when a repeat cannot do harm: an idempotent method, or an `Idempotency-Key` header. */
export function isIdempotent(request: RequestDescription): boolean {
  return isIdempotentMethod(request.method) || request.headers.has('idempotency-key');
}

/**
 * True when the body can be sent again: none, string, bytes, Blob, FormData or URLSearchParams.
 * A stream (or a `Request` carrying a body) is sent once and never retried.
 */
export function isReplayable(input: string | URL | Request, init: RequestInit | undefined): boolean {
  const body = init?.body;
  if (body === undefined || body === null) {
    return !(isRequest(input) && input.body !== null);
  }
  return (
    typeof body === 'string' ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    body instanceof URLSearchParams
  );
}

import { invalid, nonNegativeInteger, onlyFields } from '../core/validate.js';
import type { HeaderList } from './headers/types.js';
import type { LimitRequest } from './request.js';

/**
 * CORS for browser clients. Without `Access-Control-Expose-Headers` a page's script cannot read
 * `RateLimit`, `Retry-After` or `Date` from a cross-origin answer, so a browser client could not pace.
 */
export interface CorsOptions {
  /** Origins allowed to read the answers: `'*'`, one origin, or a list (the request's is echoed). @default '*' */
  origin?: string | readonly string[];
  /** How long a browser may cache a preflight answer, in seconds. @default 600 */
  maxAgeSeconds?: number;
}

/** `true` for `{}` (any origin); `false`/`undefined` for no CORS headers. */
export type CorsOption = boolean | CorsOptions | undefined;

/** Every field of {@link CorsOptions}: another is a misspelling, refused. */
const CORS_FIELDS = { origin: true, maxAgeSeconds: true } satisfies Record<keyof CorsOptions, true>;

/**
 * Validates a `cors` option when an adapter is made: a boolean, `undefined`, or `{ origin,
 * maxAgeSeconds }` with `origin` a string or a list of strings and `maxAgeSeconds` a whole number
 * of seconds. Anything else is an `InvalidOptionError`: a restriction mistyped must never widen to
 * any origin.
 */
export function validateCors(cors: unknown): CorsOption {
  if (cors === undefined || typeof cors === 'boolean') return cors;
  if (typeof cors !== 'object' || cors === null || Array.isArray(cors))
    invalid('cors', 'true, false or { origin, maxAgeSeconds }', cors);
  onlyFields(cors, CORS_FIELDS, 'cors.');
  const { origin, maxAgeSeconds } = cors as CorsOptions;
  if (
    origin !== undefined &&
    typeof origin !== 'string' &&
    !(Array.isArray(origin) && origin.every((o) => typeof o === 'string'))
  )
    invalid('cors.origin', "'*', an origin, or a list of origins", origin);
  if (maxAgeSeconds !== undefined) nonNegativeInteger('cors.maxAgeSeconds', maxAgeSeconds);
  return cors as CorsOptions;
}

function resolved(cors: CorsOption): Required<CorsOptions> | undefined {
  if (!cors) return undefined;
  const options = cors === true ? {} : cors;
  return { origin: options.origin ?? '*', maxAgeSeconds: options.maxAgeSeconds ?? 600 };
}

function allowOrigin(origin: string | readonly string[], requestOrigin: string | null): HeaderList {
  if (origin === '*') return [['Access-Control-Allow-Origin', '*']];
  const allowed = typeof origin === 'string' ? [origin] : origin;
  const vary: HeaderList = [['Vary', 'Origin']];
  return requestOrigin !== null && allowed.includes(requestOrigin)
    ? [['Access-Control-Allow-Origin', requestOrigin], ...vary]
    : vary;
}

/**
 * CORS headers for an answer that carries `sent` (the limiter's headers): the origin allowed and
 * every one of those header names exposed (rate-limit fields, `Retry-After`, `Date`).
 */
export function corsHeaders(cors: CorsOption, request: LimitRequest, sent: HeaderList): HeaderList {
  const options = resolved(cors);
  if (!options) return [];
  const names = [...new Set(sent.map(([name]) => name))];
  const exposed: HeaderList = names.length > 0 ? [['Access-Control-Expose-Headers', names.join(', ')]] : [];
  return [...allowOrigin(options.origin, request.headers.get('origin')), ...exposed];
}

/** A browser's preflight (`OPTIONS` with `Access-Control-Request-Method`), when CORS is on. */
export function isPreflight(cors: CorsOption, request: LimitRequest): boolean {
  return (
    resolved(cors) !== undefined &&
    request.method === 'OPTIONS' &&
    request.headers.get('access-control-request-method') !== null
  );
}

/** Headers of the `204` answer to a preflight: not counted against any quota. */
export function preflightHeaders(cors: CorsOption, request: LimitRequest): HeaderList {
  const options = resolved(cors);
  if (!options) return [];
  const requested = request.headers.get('access-control-request-headers');
  return [
    ...allowOrigin(options.origin, request.headers.get('origin')),
    ['Access-Control-Allow-Methods', 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'],
    ...(requested ? ([['Access-Control-Allow-Headers', requested]] as HeaderList) : []),
    ['Access-Control-Max-Age', String(options.maxAgeSeconds)],
  ];
}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '../core/clock.js';
import { clockOption, invalid, nonNegative, positive, withDefaults } from '../core/validate.js';
import type { AlgorithmName } from '../stores/store.js';
import { limitNodeRequest } from './adapters/node.js';
import { type CorsOption, corsHeaders, isPreflight, preflightHeaders, validateCors } from './cors.js';
import { defaultKeyOf } from './default-key.js';
import type { HeaderDialect } from './headers/types.js';
import type { RateLimitMetrics } from './metrics.js';
import { nodeRequest } from './node-request.js';
import { type RateLimitOptions, rateLimitDefaults } from './options.js';
import type { Policy } from './policy.js';
import { rateLimit } from './rate-limit.js';
import type { ClientInfo, LimitRequest } from './request.js';

/** Options of {@link startServer} (and the `headway serve` flags). */
export interface ServeOptions {
  /** Port (a whole number, 0–65535); 0 picks a free one. @default 0 */
  port: number;
  /** Interface to bind. @default '127.0.0.1' */
  host: string;
  /** Sustained requests per second (bucket algorithms), or the rate a window's limit derives from. @default 10 */
  rate: number;
  /**
   * Burst (bucket algorithms) or requests per window (window algorithms), at least 1 (each request
   * costs 1). @default max(1, rate), or rate·window (a whole number of requests, at least 1)
   */
  burst: number | undefined;
  /** Window length for the window algorithms, in ms. @default 1_000 */
  windowMs: number;
  /** @default 'token-bucket' */
  algorithm: AlgorithmName;
  /** @default 'ietf' */
  headers: HeaderDialect;
  /** Added delay before each admitted answer, in ms. @default 0 */
  latencyMs: number;
  /** Outage injection: answer 503 without `Retry-After` for the first N ms. @default 0 */
  failForMs: number;
  /** The `Date` header (and epoch resets) lie by this much, in ms. @default 0 */
  clockSkewMs: number;
  /** @default 'enforce' */
  mode: 'enforce' | 'observe';
  /** Key requests by this header's value (else the limiter's default key). @default undefined */
  keyHeader: string | undefined;
  /** The server's clock (tests pass a `ManualClock`). @default systemClock */
  clock: Clock;
  /** CORS headers for browser clients (rate-limit headers, `Retry-After` and `Date` exposed; preflights answered). @default true */
  cors: CorsOption;
  /** Any other limiter option (store, retryAfterMsHeader, trustProxy, …). @default {} */
  limiter: Partial<RateLimitOptions>;
}

/** A running reference server. */
export interface RunningServer {
  /** `http://host:port`. */
  url: string;
  port: number;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
  metrics(): RateLimitMetrics;
}

/** Defaults of {@link ServeOptions}. */
export const serveDefaults: ServeOptions = {
  port: 0,
  host: '127.0.0.1',
  rate: 10,
  burst: undefined,
  windowMs: 1_000,
  algorithm: 'token-bucket',
  headers: 'ietf',
  latencyMs: 0,
  failForMs: 0,
  clockSkewMs: 0,
  mode: 'enforce',
  keyHeader: undefined,
  clock: systemClock,
  cors: true,
  limiter: {},
};

/**
 * The key of `--key-header NAME`: `NAME=<value>` for a request with the header (a form no default
 * key takes, so a value cannot name another client's quota), else the limiter's default key.
 */
function headerKey(name: string, limiter: Partial<RateLimitOptions>) {
  const header = name.toLowerCase();
  const fallback = defaultKeyOf({
    trustProxy: limiter.trustProxy ?? rateLimitDefaults.trustProxy,
    ipv6Prefix: limiter.ipv6Prefix ?? rateLimitDefaults.ipv6Prefix,
  });
  return (request: LimitRequest, info: ClientInfo): string => {
    const value = request.headers.get(header);
    return value === null ? fallback(request, info) : `${header}=${value}`;
  };
}

/** The serve policy: `{ rate, burst }` for bucket algorithms, `{ limit, windowMs }` for window ones. */
export function servePolicy(o: Pick<ServeOptions, 'rate' | 'burst' | 'windowMs' | 'algorithm'>): Policy {
  if (o.algorithm === 'token-bucket' || o.algorithm === 'gcra') return { rate: o.rate, burst: o.burst };
  if (o.burst !== undefined) return { limit: o.burst, windowMs: o.windowMs };
  // Never rounded: 0.5/s over a 1 s window admitted 1/s, twice the rate asked for.
  const limit = (o.rate * o.windowMs) / 1000;
  if (!(Number.isInteger(limit) && limit >= 1))
    invalid(
      'rate',
      `with a window algorithm, a rate that makes rate × windowMs / 1000 a whole number of requests, at least 1 (${o.rate}/s over ${o.windowMs} ms is ${limit}); or set the window's limit with burst`,
      o.rate,
    );
  return { limit, windowMs: o.windowMs };
}

/**
 * An answer of the injected outage: `503`, with the CORS headers every answer carries (`Date`
 * exposed), and a preflight answered as at any other time, so a browser client sees the outage.
 */
function outage(req: IncomingMessage, res: ServerResponse, cors: CorsOption): void {
  const request = nodeRequest(req);
  if (cors && isPreflight(cors, request)) {
    res.writeHead(204, Object.fromEntries(preflightHeaders(cors, request))).end();
    return;
  }
  for (const [name, value] of corsHeaders(cors, request, [['Date', '']])) res.setHeader(name, value);
  res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"unavailable"}');
}

/** A field name (RFC 9110 §5.1: a token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The largest `clockSkewMs`: 100 years, so a skewed `Date` is always a date. */
const MAX_CLOCK_SKEW_MS = 100 * 365.25 * 86_400_000;

/** Starts the reference server (what `headway serve` runs): a 200 JSON echo behind `rateLimit`. */
export async function startServer(options?: Partial<ServeOptions>): Promise<RunningServer> {
  const o: ServeOptions = withDefaults(serveDefaults, options);
  validateCors(o.cors);
  if (!(Number.isInteger(o.port) && o.port >= 0 && o.port <= 65_535))
    invalid('port', 'a whole number from 0 to 65535', o.port);
  positive('rate', o.rate);
  // Every request costs 1: a burst (or window limit) below it would refuse them all.
  if (o.burst !== undefined && !(o.burst >= 1))
    invalid('burst', 'at least 1 (each request costs 1)', o.burst);
  for (const name of ['latencyMs', 'failForMs'] as const) nonNegative(name, o[name]);
  if (!(Math.abs(o.clockSkewMs) <= MAX_CLOCK_SKEW_MS))
    invalid('clockSkewMs', `a number of ms within ±${MAX_CLOCK_SKEW_MS} (100 years)`, o.clockSkewMs);
  // Checked here: `rateLimit` sees the skewed clock below, which always looks like a clock.
  clockOption('clock', o.clock);
  if (o.keyHeader !== undefined && !(typeof o.keyHeader === 'string' && HEADER_NAME.test(o.keyHeader)))
    invalid('keyHeader', "a header name (RFC 9110's token: no spaces, no ':')", o.keyHeader);
  const { clock, clockSkewMs } = o;
  const skewed: Clock = {
    now: () => clock.now(),
    wallNow: () => clock.wallNow() + clockSkewMs,
    sleep: (ms, s) => clock.sleep(ms, s),
  };
  const limiter = rateLimit({
    algorithm: o.algorithm,
    headers: o.headers,
    mode: o.mode,
    policy: servePolicy(o),
    clock: skewed,
    ...(o.keyHeader !== undefined ? { key: headerKey(o.keyHeader, o.limiter) } : {}),
    ...o.limiter,
  });
  const startedAt = clock.now();
  /** Aborted by `close()`: an answer still in its latency then ends with its connection. */
  const closing = new AbortController();
  const server = createServer(async (req, res) => {
    res.setHeader('Date', new Date(skewed.wallNow()).toUTCString());
    if (clock.now() - startedAt < o.failForMs) {
      outage(req, res, o.cors);
      return;
    }
    if (!(await limitNodeRequest(limiter, req, res, { cors: o.cors }))) return;
    if (o.latencyMs > 0) {
      try {
        await clock.sleep(o.latencyMs, closing.signal);
      } catch {
        return; // closed: the connection is gone
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${host}:${port}`,
    port,
    metrics: () => limiter.metrics(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

import { type CorsOption, corsHeaders, isPreflight, preflightHeaders, validateCors } from '../cors.js';
import type { HeaderList } from '../headers/types.js';
import { type LimitOutcome, refusalResponse, withHeaders } from '../outcome.js';
import { deciderOf, isPromise, type RateLimiter } from '../rate-limit.js';
import type { LimitRequest } from '../request.js';
import {
  type NodeServerEnv,
  nodeServerEnv,
  nodeServerIp,
  nodeServerRequest,
  setOnOutgoing,
} from './node-server-env.js';

// What the middleware uses of Hono, as structural types: `hono` is an optional peer, and
// `headway/server`'s declarations must not need it installed (as `headway/redis` never names ioredis).

/** What the middleware uses of Hono's `Context`. */
export interface HonoContext {
  readonly env: unknown;
  readonly req: { readonly raw: Request };
  res: Response;
  /** A response with the headers set on the context so far (an earlier middleware's too). */
  newResponse(data: ReadableStream<Uint8Array> | string | null, init?: ResponseInit): Response;
}

/** What a Hono middleware's promise settles with: a response that ends the chain, or nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: Hono's own middleware type, `next()`'s promise included
export type HonoResult = Promise<Response | void>;

/** Hono's `next`. */
export type HonoNext = () => Promise<void>;

/**
 * A Hono middleware (`app.use(honoRateLimit(limiter))`). `C` is Hono's own `Context` when the `ip`
 * option names it (`ip: (c: Context) => getConnInfo(c).remote.address`); left to inference, it
 * is open (`any`), so an unannotated `ip` gets a context Hono's helpers accept.
 */
// biome-ignore lint/suspicious/noExplicitAny: Hono's Context has private fields no structural type matches
export type HonoMiddleware<C extends HonoContext = any> = (c: C, next: HonoNext) => HonoResult;

/** The socket address under `@hono/node-server` (`c.env.incoming`), else `undefined`. */
function socketIp(c: HonoContext): string | undefined {
  return nodeServerIp(c.env);
}

/**
 * Outside `@hono/node-server`: the headers go on the response once the handler has run, by the
 * rule of every adapter (`fieldOver`: a field it lacks is added, the name lists and the IETF lists
 * join, any other the handler set wins), on its own `Headers` (copied once if they are immutable).
 * Never on the context before the handler: an earlier middleware that read `c.res` (hono/cors
 * does) makes Hono copy the context's headers over a response the handler builds itself, and a
 * name list appended there cannot be taken back (`Vary: Origin, Origin`).
 */
async function onContext(c: HonoContext, next: HonoNext, headers: HeaderList): Promise<void> {
  await next();
  const sent = c.res;
  const merged = withHeaders(sent, headers);
  if (merged !== sent) c.res = merged;
}

/** The limiter's own answer, with the headers an earlier middleware set on the context kept (as Hono's own error answers keep them). */
function answered(c: HonoContext, response: Response): Response {
  return c.newResponse(response.body, response);
}

/**
 * Hono middleware. `ip` reads the client address for your runtime (default: `@hono/node-server`'s
 * socket; elsewhere pass e.g. `getConnInfo(c).remote.address`). Under `@hono/node-server` the
 * headers go on the node response underneath, written with its head; elsewhere they go on the
 * response once the handler has run. With an
 * in-process store it adds no promise of its own: it returns `next()`. `cors` sends CORS headers
 * and answers preflights with `204`, uncounted.
 */
// biome-ignore lint/suspicious/noExplicitAny: see HonoMiddleware
export function honoRateLimit<C extends HonoContext = any>(
  limiter: RateLimiter,
  options: { ip?: (c: C) => string | undefined; cors?: CorsOption } = {},
): HonoMiddleware<C> {
  const decide = deciderOf(limiter);
  const ipOf = options.ip ?? socketIp;
  const cors = validateCors(options.cors);
  const proceed = (
    c: C,
    next: HonoNext,
    request: LimitRequest,
    env: NodeServerEnv | undefined,
    decided: LimitOutcome,
  ): HonoResult => {
    const outcome = cors
      ? { ...decided, headers: [...decided.headers, ...corsHeaders(cors, request, decided.headers)] }
      : decided;
    if (!outcome.allowed) return Promise.resolve(answered(c, refusalResponse(outcome)));
    if (!env) return onContext(c, next, outcome.headers);
    setOnOutgoing(env, outcome.headers);
    return next();
  };
  return function honoRateLimitMiddleware(c: C, next: HonoNext) {
    try {
      const env = nodeServerEnv(c.env);
      const request = env ? nodeServerRequest(c, env) : c.req.raw;
      if (cors && isPreflight(cors, request))
        return Promise.resolve(
          answered(c, new Response(null, { status: 204, headers: preflightHeaders(cors, request) })),
        );
      const pending = decide(request, { ip: ipOf(c) });
      return isPromise(pending)
        ? pending.then((o) => proceed(c, next, request, env, o))
        : proceed(c, next, request, env, pending);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

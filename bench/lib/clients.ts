/**
 * The HTTP clients under test, each built the way its own README recommends for "200 requests per
 * second, bursts of 20" (when it has a way to be told the limit) and "retry rate-limited calls".
 * Every client counts its attempts at the transport (`onAttempt`), consumes each body, and settles
 * with `{ ok, status }` (status 0: it threw with no response) — never with an exception.
 */
import Bottleneck from 'bottleneck';
import got from 'got';
import { createFetch, type FetchLike } from 'headway';
import { headwayInterceptor } from 'headway/undici';
import ky from 'ky';
import PQueue from 'p-queue';
import pRetry from 'p-retry';
import { Agent, type Dispatcher, RetryAgent, fetch as undiciFetch, request as undiciRequest } from 'undici';
import { floorInterceptor } from './floor-interceptor.js';
import { sleep } from './stats.js';

export interface Outcome {
  ok: boolean;
  status: number;
}

export interface ClientContext {
  /** The limit a client may be told (clients that learn it ignore this). */
  known: { rate: number; burst: number };
  /** Called once per attempt the client sends; `undefined` in S4, so transports are not wrapped. */
  onAttempt?: (() => void) | undefined;
  /** Bottleneck clustering (S3): its Redis, and a limiter id unique to the run. */
  redisUrl?: string;
  clusterId?: string;
  /** Aborted when the run is over: a capped run's retries and waits stop instead of running on. */
  signal?: AbortSignal;
  /** Request headers (S3: the API key). */
  headers?: Record<string, string>;
}

export interface BenchClient {
  get(url: string): Promise<Outcome>;
  close(): Promise<void>;
}

export type Transport = 'global fetch' | 'undici fetch' | 'undici request' | 'node:http';

export interface ClientSpec {
  id: string;
  /** Shown in tables. */
  label: string;
  transport: Transport;
  /** Reads rate-limit headers of the response (so the header dialect may change what it does). */
  dialectSensitive: boolean;
  /** Headway itself (not a peer). */
  headway: boolean;
  make(ctx: ClientContext): BenchClient;
}

const settle = async (res: Response): Promise<Outcome> => {
  await res.arrayBuffer();
  return { ok: res.ok, status: res.status };
};
const failed = (error: unknown): Outcome => ({ ok: false, status: statusOf(error) });
function statusOf(error: unknown): number {
  const e = error as {
    response?: { status?: number; statusCode?: number };
    statusCode?: number;
    status?: number;
  };
  return e?.response?.status ?? e?.response?.statusCode ?? e?.statusCode ?? e?.status ?? 0;
}

/** `init` with the run's signal added (combined with the caller's own, if any). */
function withRunSignal(
  init: RequestInit | undefined,
  signal: AbortSignal | undefined,
): RequestInit | undefined {
  if (!signal) return init;
  return { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal };
}

/** A transport counted per attempt when asked, and stopped by the run's signal. */
function wrap(transport: FetchLike, ctx: ClientContext): FetchLike {
  const { onAttempt: count, signal } = ctx;
  if (!count && !signal) return transport;
  return (input, init) => {
    count?.();
    return transport(input, withRunSignal(init, signal));
  };
}

const globalTransport = (ctx: ClientContext) => wrap((input, init) => globalThis.fetch(input, init), ctx);
const undiciFetchLike = undiciFetch as unknown as FetchLike;
const undiciTransport = (ctx: ClientContext) => wrap(undiciFetchLike, ctx);

/** Retry-After in ms (delay-seconds only: what the reference server sends), default 1 s. */
const retryAfterMs = (res: Response) => (Number(res.headers.get('retry-after')) || 1) * 1000;
const retryable = (status: number) => status === 429 || status >= 500;
const none = async () => undefined;

export const headwayConfigured: ClientSpec = {
  id: 'headway-configured',
  label: 'Headway, configured',
  transport: 'global fetch',
  dialectSensitive: true,
  headway: true,
  make(ctx) {
    const fetch = createFetch({ rate: ctx.known.rate, burst: ctx.known.burst, fetch: globalTransport(ctx) });
    const init = {
      ...(ctx.headers ? { headers: ctx.headers } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    };
    return { get: (url) => fetch(url, init).then(settle, failed), close: none };
  },
};

export const headwayLearning: ClientSpec = {
  id: 'headway-learning',
  label: 'Headway, unconfigured (learns)',
  transport: 'global fetch',
  dialectSensitive: true,
  headway: true,
  make(ctx) {
    const fetch = createFetch({ fetch: globalTransport(ctx) });
    const init = ctx.signal ? { signal: ctx.signal } : undefined;
    return { get: (url) => fetch(url, init).then(settle, failed), close: none };
  },
};

/** `createFetch({ fetch: undiciFetch })`: S4 only. */
export const headwayUndici: ClientSpec = {
  id: 'headway-undici',
  label: 'Headway over undici fetch',
  transport: 'undici fetch',
  dialectSensitive: true,
  headway: true,
  make(ctx) {
    const fetch = createFetch({ fetch: undiciTransport(ctx) });
    const init = ctx.signal ? { signal: ctx.signal } : undefined;
    return { get: (url) => fetch(url, init).then(settle, failed), close: none };
  },
};

/** Plain `fetch`, no retry: what most code does. */
export const plainFetch: ClientSpec = {
  id: 'fetch',
  label: 'fetch, no retry',
  transport: 'global fetch',
  dialectSensitive: false,
  headway: false,
  make(ctx) {
    const fetch = globalTransport(ctx);
    return { get: (url) => fetch(url).then(settle, failed), close: none };
  },
};

/** The hand-written loop: retry 429/5xx/network errors at once, up to 10 times. */
export const retryImmediately: ClientSpec = {
  id: 'retry-loop',
  label: 'retry-immediately loop (10)',
  transport: 'global fetch',
  dialectSensitive: false,
  headway: false,
  make(ctx) {
    const fetch = globalTransport(ctx);
    return {
      async get(url) {
        let last: Outcome = { ok: false, status: 0 };
        for (let attempt = 0; attempt <= 10; attempt++) {
          last = await fetch(url).then(settle, failed);
          if (!retryable(last.status) && last.status !== 0) return last;
        }
        return last;
      },
      close: none,
    };
  },
};

/** p-retry with its defaults (10 retries, 1 s × 2ⁿ); the README's fetch example: throw on a bad status. */
export const pRetryClient: ClientSpec = {
  id: 'p-retry',
  label: 'p-retry (defaults)',
  transport: 'global fetch',
  dialectSensitive: false,
  headway: false,
  make(ctx) {
    const fetch = globalTransport(ctx);
    return {
      get: (url) =>
        pRetry(
          async () => {
            const outcome = await settle(await fetch(url));
            if (retryable(outcome.status)) throw Object.assign(new Error(`HTTP ${outcome.status}`), outcome);
            return outcome;
          },
          ctx.signal ? { signal: ctx.signal } : {},
        ).catch(failed),
      close: none,
    };
  },
};

/**
 * ky retrying `limit` times, otherwise with its retry defaults (429/503 wait for Retry-After, else
 * RateLimit-Reset/X-RateLimit-Reset).
 */
function kyRetrying(limit: number, id: string, label: string): ClientSpec {
  return {
    id,
    label,
    transport: 'global fetch',
    dialectSensitive: true,
    headway: false,
    make(ctx) {
      const client = ky.create({
        fetch: globalTransport(ctx),
        retry: {
          limit,
          statusCodes: [408, 413, 429, 500, 502, 503, 504],
          afterStatusCodes: [413, 429, 503],
        },
      });
      return {
        get: (url) =>
          client
            .get(url)
            .arrayBuffer()
            .then(() => ({ ok: true, status: 200 }), failed),
        close: none,
      };
    },
  };
}

/** ky with its retry defaults (limit 2). */
export const kyClient: ClientSpec = kyRetrying(2, 'ky', 'ky (retry defaults)');

/** ky given retries enough to finish every call against a limiter (S6), the rest its defaults. */
export const kyPatient: ClientSpec = kyRetrying(10, 'ky-10', 'ky (retry limit 10)');

/** got with its retry defaults (limit 2, honours Retry-After, else 1 s × 2ⁿ + noise). */
export const gotClient: ClientSpec = {
  id: 'got',
  label: 'got (retry defaults)',
  transport: 'node:http',
  dialectSensitive: false,
  headway: false,
  make(ctx) {
    const count = ctx.onAttempt;
    const client = count
      ? got.extend({
          hooks: {
            beforeRequest: [
              () => {
                count(); // return nothing: a value returned here would replace the response
              },
            ],
          },
        })
      : got;
    return {
      get: (url) =>
        client(url, ctx.signal ? { signal: ctx.signal } : {}).then(
          (res) => ({ ok: res.ok, status: res.statusCode }),
          failed,
        ),
      close: none,
    };
  },
};

function countingAgent(ctx: ClientContext): Dispatcher {
  const agent = new Agent();
  const count = ctx.onAttempt;
  if (!count) return agent;
  return agent.compose((dispatch) => (options, handler) => {
    count();
    return dispatch(options, handler);
  });
}

/** A client that GETs with `undici.request` through `dispatcher` and reads each body whole. */
function undiciRequestClient(dispatcher: Dispatcher, signal: AbortSignal | undefined): BenchClient {
  return {
    async get(url) {
      try {
        const res = await undiciRequest(url, { dispatcher, ...(signal ? { signal } : {}) });
        await res.body.arrayBuffer();
        return { ok: res.statusCode >= 200 && res.statusCode < 300, status: res.statusCode };
      } catch (error) {
        return failed(error);
      }
    },
    close: () => dispatcher.close(),
  };
}

/** undici `RetryAgent` with its defaults (5 retries of 429/5xx, Retry-After honoured, else 0.5 s × 2ⁿ). */
export const retryAgentClient: ClientSpec = {
  id: 'undici-retry-agent',
  label: 'undici RetryAgent (defaults)',
  transport: 'undici request',
  dialectSensitive: false,
  headway: false,
  make(ctx) {
    const inner = countingAgent(ctx);
    const dispatcher = new RetryAgent(inner);
    return undiciRequestClient(dispatcher, ctx.signal);
  },
};

/** `undici.request` through `headwayInterceptor()` (unconfigured: it learns): S4 only. */
export const headwayInterceptorClient: ClientSpec = {
  id: 'headway-interceptor',
  label: 'Headway interceptor on undici request',
  transport: 'undici request',
  dialectSensitive: true,
  headway: true,
  make(ctx) {
    const dispatcher = countingAgent(ctx).compose(headwayInterceptor());
    return undiciRequestClient(dispatcher, ctx.signal);
  },
};

/** S4's reference row: the least an interceptor that paces must do (key, lookup, header read), on an Agent. */
export const floorInterceptorClient: ClientSpec = {
  id: 'floor-interceptor',
  label: 'floor: interceptor that keys, looks up and reads headers',
  transport: 'undici request',
  dialectSensitive: false,
  headway: false,
  make(ctx) {
    const dispatcher = countingAgent(ctx).compose(floorInterceptor);
    return undiciRequestClient(dispatcher, ctx.signal);
  },
};

/** Raw undici `request` on a plain Agent: S4's baseline for RetryAgent. */
export const undiciRequestRaw: ClientSpec = {
  id: 'undici-request',
  label: 'undici request',
  transport: 'undici request',
  dialectSensitive: false,
  headway: false,
  make(ctx) {
    const dispatcher = countingAgent(ctx);
    return undiciRequestClient(dispatcher, ctx.signal);
  },
};

/** Raw undici `fetch`: S4's baseline for Headway over undici. */
export const undiciFetchRaw: ClientSpec = {
  id: 'undici-fetch',
  label: 'undici fetch',
  transport: 'undici fetch',
  dialectSensitive: false,
  headway: false,
  make(ctx) {
    const fetch = undiciTransport(ctx);
    return { get: (url) => fetch(url).then(settle, failed), close: none };
  },
};

class RateLimited extends Error {
  constructor(readonly waitMs: number) {
    super('HTTP 429');
  }
}

/**
 * Bottleneck set to the known limit as its README says: a reservoir of `rate` refreshed every
 * second (a multiple of 250 ms; 5 × rate every 5 s when clustered, a multiple of 5 000 ms), with
 * `minTime` = 1000 / rate "for safety" so a refresh does not flood; a 429 is retried from the
 * `failed` event after Retry-After, twice at most. In S3 it is clustered over ioredis.
 */
export const bottleneckClient: ClientSpec = {
  id: 'bottleneck',
  label: 'bottleneck (reservoir + minTime)',
  transport: 'global fetch',
  dialectSensitive: false,
  headway: false,
  make(ctx) {
    const { rate } = ctx.known;
    const fetch = globalTransport(ctx);
    const clustered = ctx.redisUrl !== undefined;
    const refreshMs = clustered ? 5000 : 1000;
    const init = ctx.headers ? { headers: ctx.headers } : undefined;
    const limiter = new Bottleneck({
      reservoir: (rate * refreshMs) / 1000,
      reservoirRefreshAmount: (rate * refreshMs) / 1000,
      reservoirRefreshInterval: refreshMs,
      minTime: 1000 / rate,
      ...(clustered
        ? {
            id: ctx.clusterId ?? 'headway-bench',
            datastore: 'ioredis',
            clearDatastore: false,
            clientOptions: {
              host: new URL(ctx.redisUrl!).hostname,
              port: Number(new URL(ctx.redisUrl!).port),
            },
          }
        : {}),
    } as Bottleneck.ConstructorOptions);
    limiter.on('failed', (error, info) =>
      error instanceof RateLimited && info.retryCount < 2 ? error.waitMs : undefined,
    );
    return {
      get: (url) =>
        limiter
          .schedule(async () => {
            const res = await fetch(url, init);
            if (res.status === 429) {
              await res.arrayBuffer();
              throw new RateLimited(retryAfterMs(res));
            }
            return settle(res);
          })
          .catch(failed),
      close: async () => {
        await limiter.stop({ dropWaitingJobs: true }).catch(() => undefined);
        await limiter.disconnect();
      },
    };
  },
};

/**
 * p-queue set to the known limit: `intervalCap: burst` per `interval: 1000 · burst / rate` ms in
 * `strict` (sliding-window) mode, which its README recommends for APIs with strict limits; a 429
 * goes back into the queue after Retry-After, twice at most.
 */
export const pQueueClient: ClientSpec = {
  id: 'p-queue',
  label: 'p-queue (strict interval)',
  transport: 'global fetch',
  dialectSensitive: false,
  headway: false,
  make(ctx) {
    const { rate, burst } = ctx.known;
    const fetch = globalTransport(ctx);
    const queue = new PQueue({ intervalCap: burst, interval: (1000 * burst) / rate, strict: true });
    return {
      async get(url) {
        for (let attempt = 0; ; attempt++) {
          const res = await queue.add(() => fetch(url)).catch(failed);
          if (!(res instanceof Response)) return res;
          if (res.status !== 429 || attempt === 2) return settle(res);
          await res.arrayBuffer();
          await sleep(retryAfterMs(res));
        }
      },
      close: async () => queue.clear(),
    };
  },
};

/** Every client, Headway first. */
export const allClients: readonly ClientSpec[] = [
  headwayConfigured,
  headwayLearning,
  plainFetch,
  retryImmediately,
  pRetryClient,
  kyClient,
  gotClient,
  retryAgentClient,
  bottleneckClient,
  pQueueClient,
];

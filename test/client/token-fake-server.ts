/**
 * An LLM-shaped server on the manual clock (no socket): a requests bucket and token buckets, each
 * refilled continuously to full over its window (OpenAI's documented shape, as
 * `test/support/openai-server.ts` is over HTTP). A request states what it counts in its JSON body
 * (`{ "tokens": n }`, or `{ "input": n, "output": m }` for Anthropic's split windows); it must fit
 * every bucket and counts in all or none. Answers carry the vendor's counters, or with `shape: 'ietf'`
 * the IETF fields (`RateLimit-Policy: "requests";q=500;w=60, "tokens";q=30000;w=60;qu="tokens"` and
 * `RateLimit: "requests";r=…;t=…, …`, `t` the whole seconds until full, rounded up).
 */

import type { Costs } from '../../src/client/cost.js';
import { createFetch, type HeadwayFetch } from '../../src/client/create-fetch.js';
import type { ClientOptions } from '../../src/client/options.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { goDuration } from '../support/openai-server.js';
import { run104Calls } from './fake-server.js';

export interface TokenLimit {
  limit: number;
  windowMs: number;
}

class Bucket {
  level: number;
  at: number;
  constructor(
    readonly l: TokenLimit,
    now: number,
  ) {
    this.level = l.limit;
    this.at = now;
  }
  read(now: number): number {
    this.level = Math.min(this.l.limit, this.level + ((now - this.at) * this.l.limit) / this.l.windowMs);
    this.at = now;
    return this.level;
  }
  resetMs(now: number): number {
    return ((this.l.limit - this.read(now)) * this.l.windowMs) / this.l.limit;
  }
  waitMs(units: number, now: number): number {
    return Math.max(0, ((units - this.read(now)) * this.l.windowMs) / this.l.limit);
  }
}

export interface LlmServerOptions {
  requests: TokenLimit;
  /** One `tokens` window (OpenAI), or Anthropic's `input-tokens` and `output-tokens`. */
  tokens?: TokenLimit;
  input?: TokenLimit;
  output?: TokenLimit;
  shape?: 'openai' | 'anthropic' | 'ietf';
  /**
   * IETF shape: the policy each bucket states, `q` units per `w` seconds (default: its limit per its
   * window). `q / w` is the bucket's rate; `q` may be far above its burst (a bucket of 10,000 tokens
   * refilled at 500 a second stated per minute, `q=30000;w=60`).
   */
  ietfPolicy?: Partial<Record<string, { q: number; w: number }>>;
  latencyMs?: number;
  /** Counters of the token window(s) only on answers for which this says true. */
  tokenCountersOn?: (index: number) => boolean;
  /** The body of a 200 (default: a `usage` object). */
  body?: (counted: Record<string, number>) => string;
  /** Token buckets start empty (another client spent them just before), not full. */
  tokensSpentAtStart?: boolean;
}

export function llmServer(clock: ManualClock, o: LlmServerOptions) {
  const shape = o.shape ?? 'openai';
  const latencyMs = o.latencyMs ?? 10;
  const start = clock.now();
  const buckets: Record<string, Bucket> = { requests: new Bucket(o.requests, start) };
  if (o.tokens) buckets.tokens = new Bucket(o.tokens, start);
  if (o.input) buckets['input-tokens'] = new Bucket(o.input, start);
  if (o.output) buckets['output-tokens'] = new Bucket(o.output, start);
  if (o.tokensSpentAtStart)
    for (const [unit, b] of Object.entries(buckets)) if (unit !== 'requests') b.level = 0;
  const log: Array<{ at: number; status: number; counted: Record<string, number> }> = [];
  let index = 0;

  const headers = (now: number, i: number): Record<string, string> => {
    const h: Record<string, string> = { 'content-type': 'application/json' };
    const policies: string[] = [];
    const counters: string[] = [];
    for (const [unit, b] of Object.entries(buckets)) {
      if (unit !== 'requests' && o.tokenCountersOn && !o.tokenCountersOn(i)) continue;
      const remaining = String(Math.max(0, Math.floor(b.read(now))));
      if (shape === 'ietf') {
        const { q, w } = o.ietfPolicy?.[unit] ?? { q: b.l.limit, w: b.l.windowMs / 1000 };
        policies.push(`"${unit}";q=${q};w=${w}${unit === 'requests' ? '' : `;qu="${unit}"`}`);
        counters.push(`"${unit}";r=${remaining};t=${Math.ceil(b.resetMs(now) / 1000 - 1e-9)}`);
      } else if (shape === 'openai') {
        h[`x-ratelimit-limit-${unit}`] = String(b.l.limit);
        h[`x-ratelimit-remaining-${unit}`] = remaining;
        h[`x-ratelimit-reset-${unit}`] = goDuration(b.resetMs(now));
      } else {
        h[`anthropic-ratelimit-${unit}-limit`] = String(b.l.limit);
        h[`anthropic-ratelimit-${unit}-remaining`] = remaining;
        h[`anthropic-ratelimit-${unit}-reset`] = new Date(
          Math.ceil((clock.wallNow() + b.resetMs(now)) / 1000) * 1000,
        )
          .toISOString()
          .replace(/\.\d{3}Z$/, 'Z');
      }
    }
    if (shape === 'ietf') {
      h['ratelimit-policy'] = policies.join(', ');
      h.ratelimit = counters.join(', ');
    }
    return h;
  };

  const fetch = async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const i = index++;
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, number>;
    const counted: Record<string, number> = { requests: 1 };
    if (buckets.tokens) counted.tokens = body.tokens ?? (body.input ?? 0) + (body.output ?? 0);
    if (buckets['input-tokens']) counted['input-tokens'] = body.input ?? 0;
    if (buckets['output-tokens']) counted['output-tokens'] = body.output ?? 0;
    await clock.sleep(latencyMs / 2);
    const now = clock.now();
    const wait = Math.max(...Object.entries(counted).map(([u, n]) => buckets[u]!.waitMs(n, now)));
    if (wait > 0) {
      log.push({ at: now, status: 429, counted });
      const h = headers(now, i);
      await clock.sleep(latencyMs / 2);
      return new Response(JSON.stringify({ error: { code: 'rate_limit_exceeded' } }), {
        status: 429,
        headers: {
          ...h,
          ...(shape === 'ietf' ? {} : { 'retry-after-ms': String(Math.ceil(wait)) }),
          'retry-after': String(Math.ceil(wait / 1000)),
        },
      });
    }
    for (const [u, n] of Object.entries(counted)) buckets[u]!.level -= n;
    log.push({ at: now, status: 200, counted });
    const h = headers(now, i);
    await clock.sleep(latencyMs / 2);
    const usage =
      shape !== 'anthropic'
        ? { total_tokens: counted.tokens }
        : {
            input_tokens: counted['input-tokens'] ?? body.input,
            output_tokens: counted['output-tokens'] ?? body.output,
          };
    return new Response(o.body ? o.body(counted) : JSON.stringify({ usage }), { status: 200, headers: h });
  };
  return {
    fetch,
    log,
    refused: () => log.filter((e) => e.status === 429).length,
    admitted: () => log.filter((e) => e.status === 200).length,
  };
}

/** A JSON POST stating what it counts. */
export const post = (body: Record<string, number>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/**
 * The lowest token refill rate `fetch` reports learned, read once a second on `clock` until `jobs`
 * settle: resolves with it (`Infinity` when none was learned) once they did.
 */
export async function lowestTokenRate(
  clock: ManualClock,
  fetch: { stats(): Array<{ learned: { unit: string; rate: number | null } }> },
  jobs: Promise<unknown>,
): Promise<number> {
  let done = false;
  void jobs.finally(() => {
    done = true;
  });
  let lowest = Number.POSITIVE_INFINITY;
  while (!done) {
    await clock.sleep(1000);
    const learned = fetch.stats()[0]?.learned;
    if (learned?.unit === 'tokens' && learned.rate !== null) lowest = Math.min(lowest, learned.rate);
  }
  return lowest;
}

/**
 * 8 callers, 13 calls each (104) through `createFetch` against {@link llmServer}: OpenAI's shape
 * (500 requests and 30,000 tokens a minute) or Anthropic's (input tokens beside 1,000,000 output
 * tokens a minute), answers in `latencyMs` (500). Each call counts `tokens(caller, i)` (1,000;
 * Anthropic: as input). `stated`: the `cost` option's figure in the shape's token unit (unset:
 * learned), or `cost`, a function of the request; `settleCost` as the option; `afterCall` sees the
 * key's stats after each call. Returns the calls that did not end in a 200 (their status, or the
 * error's name), the server's refusals, and when it counted the last call (ms after the start).
 */
export async function tokenBucketJob(o: {
  shape: 'openai' | 'anthropic';
  stated?: number;
  cost?: ClientOptions['cost'];
  settleCost?: ClientOptions['settleCost'];
  tokens?: (caller: number, i: number) => number;
  latencyMs?: number;
  tokensSpentAtStart?: boolean;
  afterCall?: (stats: ReturnType<HeadwayFetch['stats']>) => void;
}) {
  const clock = new ManualClock();
  const server = llmServer(clock, {
    shape: o.shape,
    latencyMs: o.latencyMs ?? 500,
    tokensSpentAtStart: o.tokensSpentAtStart,
    requests: { limit: 500, windowMs: 60_000 },
    ...(o.shape === 'openai'
      ? { tokens: { limit: 30_000, windowMs: 60_000 } }
      : { input: { limit: 30_000, windowMs: 60_000 }, output: { limit: 1_000_000, windowMs: 60_000 } }),
  });
  const unit = o.shape === 'openai' ? 'tokens' : 'input-tokens';
  const stated = o.stated;
  const fetch = createFetch({
    fetch: server.fetch,
    clock,
    random: () => 0.5,
    cost: o.cost ?? (stated === undefined ? undefined : (): Costs => ({ [unit]: stated })),
    settleCost: o.settleCost,
  });
  const start = clock.now();
  const failed = await run104Calls(
    clock,
    fetch,
    (c, i) => {
      const tokens = o.tokens?.(c, i) ?? 1000;
      return post(o.shape === 'openai' ? { tokens } : { input: tokens, output: 0 });
    },
    () => o.afterCall?.(fetch.stats()),
  );
  const doneMs = Math.max(...server.log.map((entry) => entry.at)) - start;
  return { failed, refused: server.refused(), doneMs };
}

/**
 * A server that counts requests and tokens with the reference server's own algorithms
 * (`src/core/algorithms`: token bucket, GCRA, fixed window, sliding window counter, sliding log),
 * on the manual clock (no socket), behind OpenAI-compatible headers
 * (`x-ratelimit-{limit,remaining,reset}-{requests,tokens}`, the reset a Go duration, no rate
 * stated) or Anthropic's (`anthropic-ratelimit-{unit}-{limit,remaining,reset}`, the reset an
 * RFC 3339 time rounded up to the second). A request states what it counts in its JSON body
 * (`{ "tokens": n }`, or `{ "input": n, "output": m }` for Anthropic's split windows); it must fit
 * every window and counts in all or none. A refusal carries `retry-after-ms` and `retry-after` (whole
 * seconds, rounded up): the longest wait of the windows that refused it, unless `hintMs` says
 * otherwise (a gateway that answers `Retry-After: 0`).
 */
import { createFetch } from '../../src/client/create-fetch.js';
import type { ClientOptions } from '../../src/client/options.js';
import { algorithms } from '../../src/core/algorithms/index.js';
import type { AlgorithmState } from '../../src/core/algorithms/types.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import type { AlgorithmName, Decision, StoreLimit } from '../../src/stores/store.js';
import { goDuration } from '../support/openai-server.js';
import { runUntilSettled } from './fake-server.js';

export interface AlgorithmWindow {
  unit: 'requests' | 'tokens' | 'input-tokens' | 'output-tokens';
  algorithm: AlgorithmName;
  limit: number;
  windowMs: number;
  /** Another client spent the whole window just before the job started. */
  spentAtStart?: boolean;
}

export interface AlgorithmTokenServerOptions {
  windows: readonly AlgorithmWindow[];
  /** @default 'openai' */
  shape?: 'openai' | 'anthropic';
  latencyMs?: number;
  /** The hint a refusal carries, from the exact wait of the windows that refused (default: that wait). */
  hintMs?: (waitMs: number) => number;
}

export function algorithmTokenServer(clock: ManualClock, o: AlgorithmTokenServerOptions) {
  const latencyMs = o.latencyMs ?? 500;
  const origin = clock.now();
  const limits: StoreLimit[] = o.windows.map((w) => ({
    algorithm: w.algorithm,
    limit: w.limit,
    windowMs: w.windowMs,
  }));
  const states: AlgorithmState[] = o.windows.map((w, i) =>
    w.spentAtStart ? algorithms[w.algorithm].take(undefined, limits[i]!, 0, w.limit).state : undefined,
  );
  const log: Array<{ at: number; status: number }> = [];

  /** Window `i` as it stands at `now`, nothing taken (a take of the whole limit, kept only when refused). */
  const peek = (i: number, now: number): Decision => {
    const { decision } = algorithms[o.windows[i]!.algorithm].take(
      states[i],
      limits[i]!,
      now,
      limits[i]!.limit,
    );
    return decision.allowed ? { ...decision, remaining: decision.limit, resetMs: 0 } : decision;
  };

  const headers = (decisions: readonly Decision[]): Record<string, string> => {
    const h: Record<string, string> = { 'content-type': 'application/json' };
    o.windows.forEach((w, i) => {
      const d = decisions[i]!;
      if (o.shape === 'anthropic') {
        const resetAt = Math.ceil((clock.wallNow() + d.resetMs) / 1000) * 1000;
        h[`anthropic-ratelimit-${w.unit}-limit`] = String(w.limit);
        h[`anthropic-ratelimit-${w.unit}-remaining`] = String(d.remaining);
        h[`anthropic-ratelimit-${w.unit}-reset`] = new Date(resetAt).toISOString().replace(/\.\d{3}Z$/, 'Z');
      } else {
        h[`x-ratelimit-limit-${w.unit}`] = String(w.limit);
        h[`x-ratelimit-remaining-${w.unit}`] = String(d.remaining);
        h[`x-ratelimit-reset-${w.unit}`] = goDuration(d.resetMs);
      }
    });
    return h;
  };

  const fetch = async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body ?? '{}')) as {
      tokens?: number;
      input?: number;
      output?: number;
    };
    const counted = {
      requests: 1,
      tokens: body.tokens ?? (body.input ?? 0) + (body.output ?? 0),
      'input-tokens': body.input ?? 0,
      'output-tokens': body.output ?? 0,
    };
    await clock.sleep(latencyMs / 2);
    const now = clock.now() - origin;
    const takes = o.windows.map((w, i) =>
      counted[w.unit] > 0 ? algorithms[w.algorithm].take(states[i], limits[i]!, now, counted[w.unit]) : null,
    );
    const allowed = takes.every((t) => t === null || t.decision.allowed);
    // A refusal counts nothing; a refused take keeps only its roll-over or refill.
    takes.forEach((t, i) => {
      if (t !== null && (allowed || !t.decision.allowed)) states[i] = t.state;
    });
    const decisions = o.windows.map((_, i) => (allowed && takes[i] ? takes[i].decision : peek(i, now)));
    log.push({ at: now, status: allowed ? 200 : 429 });
    const h = headers(decisions);
    await clock.sleep(latencyMs / 2);
    if (allowed)
      return new Response(JSON.stringify({ usage: { total_tokens: counted.tokens } }), {
        status: 200,
        headers: h,
      });
    const waitMs = Math.max(...takes.map((t) => (t && !t.decision.allowed ? t.decision.retryAfterMs : 0)));
    const hintMs = Math.max(0, Math.ceil(o.hintMs ? o.hintMs(waitMs) : waitMs));
    return new Response(JSON.stringify({ error: { code: 'rate_limit_exceeded' } }), {
      status: 429,
      headers: { ...h, 'retry-after-ms': String(hintMs), 'retry-after': String(Math.ceil(hintMs / 1000)) },
    });
  };

  return {
    fetch,
    log,
    refused: () => log.filter((e) => e.status === 429).length,
    admitted: () => log.filter((e) => e.status === 200).length,
  };
}

/**
 * 8 callers, 13 calls each (104), through `createFetch` (its `cost`) against
 * {@link algorithmTokenServer}: how many were answered 200, the errors the others ended with (a
 * `429` returned after the retries, or the error's name), how many the server refused, and when
 * it counted the last one (ms after the start).
 */
export async function algorithmTokenJob(
  server: AlgorithmTokenServerOptions,
  o: { cost: ClientOptions['cost']; call: (caller: number, i: number) => RequestInit },
) {
  const clock = new ManualClock();
  const target = algorithmTokenServer(clock, server);
  const fetch = createFetch({ fetch: target.fetch, clock, random: () => 0.5, cost: o.cost });
  let ok = 0;
  const failed: string[] = [];
  const caller = async (c: number) => {
    for (let i = 0; i < 13; i++) {
      await fetch('http://127.0.0.1:9/v1/chat/completions', o.call(c, i)).then(
        (response) => {
          if (response.status === 200) ok++;
          else failed.push(String(response.status));
        },
        (error: Error) => failed.push(error.name),
      );
    }
  };
  await runUntilSettled(
    clock,
    Array.from({ length: 8 }, (_, c) => caller(c)),
    20,
    3_600_000,
  );
  const doneMs = Math.max(...target.log.map((entry) => entry.at));
  return { ok, failed, refused: target.refused(), doneMs };
}

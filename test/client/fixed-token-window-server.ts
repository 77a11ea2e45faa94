/**
 * A server that counts tokens (and requests) in FIXED windows, on the manual clock (no socket):
 * each window's count starts afresh at its boundary, and its reset is the time to the window's
 * end — an average of what comes back, not a refill rate (units come back all at once, at the
 * end). A request states what it counts in its JSON body (`{ "tokens": n }`), must fit every
 * window, and counts in all or none. Its counters come in one of two shapes:
 * - `openai`: `x-ratelimit-{limit,remaining,reset}-{requests,tokens}`, the reset a Go duration
 *   (a fixed-window server behind OpenAI-compatible headers);
 * - `ietf`: `RateLimit-Policy: "tpm";q=10000;qu="tokens"` (`w` only where `statesW`) and
 *   `RateLimit: "tpm";r=…;t=…`, `t` in whole seconds rounded up, as Headway's own server writes it.
 * A refusal carries `retry-after-ms` and `retry-after` to the end of the window that refused it.
 *
 * `algorithm: 'sliding-log'` counts each window as a log instead: a counted unit is back one
 * window after it was counted, and the reset is the time until every counted unit is back (full
 * again), also an average of units that come back in steps, not a refill rate.
 */
import { createFetch } from '../../src/client/create-fetch.js';
import type { ClientOptions } from '../../src/client/options.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { goDuration } from '../support/openai-server.js';
import { run104Calls } from './fake-server.js';

export interface FixedWindow {
  /** The policy's name (the IETF shape's; the OpenAI shape names a window by its unit). */
  name: string;
  unit: 'requests' | 'tokens';
  limit: number;
  windowMs: number;
  /** IETF shape: state `w` (a rate the client can read as `q / w`). */
  statesW?: boolean;
  /** `fixed` (default): windows aligned to the server's start; `sliding-log`: units back one window after each was counted. */
  algorithm?: 'fixed' | 'sliding-log';
}

export function fixedTokenWindowServer(
  clock: ManualClock,
  o: { windows: readonly FixedWindow[]; shape: 'openai' | 'ietf'; latencyMs?: number },
) {
  const latencyMs = o.latencyMs ?? 500;
  const origin = clock.now();
  const counts = o.windows.map(() => ({ index: -1, used: 0 }));
  const logs = o.windows.map(() => [] as Array<{ at: number; units: number }>);

  /** The window `i` now: units it counts, ms to its end (a log: until every unit is back), ms until `units` more fit. */
  const windowAt = (i: number, now: number) => {
    const w = o.windows[i]!;
    if (w.algorithm === 'sliding-log') {
      const entries = logs[i]!;
      while (entries.length > 0 && entries[0]!.at + w.windowMs <= now) entries.shift();
      const used = entries.reduce((sum, e) => sum + e.units, 0);
      const last = entries[entries.length - 1];
      const fitsInMs = (units: number) => {
        let over = used + units - w.limit;
        for (const e of entries) {
          if (over <= 0) break;
          over -= e.units;
          if (over <= 0) return e.at + w.windowMs - now;
        }
        return 0;
      };
      const add = (units: number) => entries.push({ at: now, units });
      return { used, resetMs: last ? last.at + w.windowMs - now : 0, fitsInMs, add };
    }
    const index = Math.floor((now - origin) / w.windowMs);
    if (counts[i]!.index !== index) counts[i] = { index, used: 0 };
    const count = counts[i]!;
    const resetMs = origin + (index + 1) * w.windowMs - now;
    const fitsInMs = (units: number) => (count.used + units > w.limit ? resetMs : 0);
    const add = (units: number) => {
      count.used += units;
    };
    return { used: count.used, resetMs, fitsInMs, add };
  };
  const log: Array<{ at: number; status: number }> = [];

  const headers = (now: number): Record<string, string> => {
    const h: Record<string, string> = { 'content-type': 'application/json' };
    const policies: string[] = [];
    const counters: string[] = [];
    o.windows.forEach((w, i) => {
      const { used, resetMs } = windowAt(i, now);
      const remaining = w.limit - used;
      if (o.shape === 'openai') {
        h[`x-ratelimit-limit-${w.unit}`] = String(w.limit);
        h[`x-ratelimit-remaining-${w.unit}`] = String(remaining);
        h[`x-ratelimit-reset-${w.unit}`] = goDuration(resetMs);
      } else {
        const window = w.statesW ? `;w=${w.windowMs / 1000}` : '';
        const unit = w.unit === 'requests' ? '' : `;qu="${w.unit}"`;
        policies.push(`"${w.name}";q=${w.limit}${window}${unit}`);
        counters.push(`"${w.name}";r=${remaining};t=${Math.ceil(resetMs / 1000)}`);
      }
    });
    if (o.shape === 'ietf') {
      h['ratelimit-policy'] = policies.join(', ');
      h.ratelimit = counters.join(', ');
    }
    return h;
  };

  /** Counts `counted` in every window, or none: ms until the windows that refuse it would fit it (0: counted). */
  const take = (counted: Record<string, number>, now: number): number => {
    let waitMs = 0;
    o.windows.forEach((w, i) => {
      waitMs = Math.max(waitMs, windowAt(i, now).fitsInMs(counted[w.unit] ?? 0));
    });
    if (waitMs > 0) return waitMs;
    o.windows.forEach((w, i) => {
      windowAt(i, now).add(counted[w.unit] ?? 0);
    });
    return 0;
  };

  const fetch = async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body ?? '{}')) as { tokens?: number };
    await clock.sleep(latencyMs / 2);
    const now = clock.now();
    const waitMs = take({ requests: 1, tokens: body.tokens ?? 0 }, now);
    log.push({ at: now, status: waitMs > 0 ? 429 : 200 });
    const h = headers(now);
    await clock.sleep(latencyMs / 2);
    if (waitMs > 0)
      return new Response(JSON.stringify({ error: { code: 'rate_limit_exceeded' } }), {
        status: 429,
        headers: {
          ...h,
          'retry-after-ms': String(Math.ceil(waitMs)),
          'retry-after': String(Math.ceil(waitMs / 1000)),
        },
      });
    return new Response(JSON.stringify({ usage: { total_tokens: body.tokens ?? 0 } }), {
      status: 200,
      headers: h,
    });
  };

  return {
    fetch,
    log,
    refused: () => log.filter((e) => e.status === 429).length,
    admitted: () => log.filter((e) => e.status === 200).length,
  };
}

/** What {@link tokenMinuteJob} runs: the key's `cost` and each call's request. */
export interface TokenMinuteJob {
  /** How the token window gives its tokens back. @default 'fixed' */
  algorithm?: 'fixed' | 'sliding-log';
  /** The `cost` option (unset: learned). */
  cost?: ClientOptions['cost'];
  /** The request of caller `caller`'s `i`-th call (its JSON body states what the server counts). */
  call: (caller: number, i: number) => RequestInit;
}

/**
 * 8 callers, 13 calls each (104), through `createFetch` against 500 requests and 30,000 tokens a
 * minute behind OpenAI-compatible headers: how many were answered 200, how many the server refused,
 * and when it counted the last one (ms after the start).
 */
export async function tokenMinuteJob(o: TokenMinuteJob) {
  const clock = new ManualClock();
  const server = fixedTokenWindowServer(clock, {
    shape: 'openai',
    windows: [
      { name: 'requests', unit: 'requests', limit: 500, windowMs: 60_000 },
      { name: 'tokens', unit: 'tokens', limit: 30_000, windowMs: 60_000, algorithm: o.algorithm },
    ],
  });
  const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5, cost: o.cost });
  const start = clock.now();
  const failed = await run104Calls(clock, fetch, o.call);
  const doneMs = Math.max(...server.log.map((entry) => entry.at)) - start;
  return { ok: 104 - failed.length, refused: server.refused(), doneMs };
}

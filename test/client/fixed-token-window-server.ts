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
 */
import type { ManualClock } from '../../src/core/manual-clock.js';
import { goDuration } from '../support/openai-server.js';

export interface FixedWindow {
  /** The policy's name (the IETF shape's; the OpenAI shape names a window by its unit). */
  name: string;
  unit: 'requests' | 'tokens';
  limit: number;
  windowMs: number;
  /** IETF shape: state `w` (a rate the client can read as `q / w`). */
  statesW?: boolean;
}

export function fixedTokenWindowServer(
  clock: ManualClock,
  o: { windows: readonly FixedWindow[]; shape: 'openai' | 'ietf'; latencyMs?: number },
) {
  const latencyMs = o.latencyMs ?? 500;
  const origin = clock.now();
  const counts = o.windows.map(() => ({ index: -1, used: 0 }));
  /** The window `i`'s count now (started afresh at a boundary), and ms to its end. */
  const windowAt = (i: number, now: number) => {
    const w = o.windows[i]!;
    const index = Math.floor((now - origin) / w.windowMs);
    if (counts[i]!.index !== index) counts[i] = { index, used: 0 };
    return { count: counts[i]!, resetMs: origin + (index + 1) * w.windowMs - now };
  };
  const log: Array<{ at: number; status: number }> = [];

  const headers = (now: number): Record<string, string> => {
    const h: Record<string, string> = { 'content-type': 'application/json' };
    const policies: string[] = [];
    const counters: string[] = [];
    o.windows.forEach((w, i) => {
      const { count, resetMs } = windowAt(i, now);
      const remaining = w.limit - count.used;
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

  /** Counts `counted` in every window, or none: ms until the window that refuses it ends (0: counted). */
  const take = (counted: Record<string, number>, now: number): number => {
    let waitMs = 0;
    o.windows.forEach((w, i) => {
      const { count, resetMs } = windowAt(i, now);
      if (count.used + (counted[w.unit] ?? 0) > w.limit) waitMs = Math.max(waitMs, resetMs);
    });
    if (waitMs > 0) return waitMs;
    o.windows.forEach((w, i) => {
      windowAt(i, now).count.used += counted[w.unit] ?? 0;
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

/**
 * A server with several limits on one key at once, on the manual clock (the shape of
 * `bench/lib/two-window-server.ts`, S6's two-window server, without a socket): each request must
 * pass every policy and is counted by them all or by none; the reference server's own pieces
 * decide (`algorithms`) and write each policy's fields (`dialects`). `mode` says how the lists reach
 * the client: `all` (every policy in `RateLimit`), `binding` (`RateLimit-Policy` lists every policy,
 * `RateLimit` only the one with the fewest units left, as the IETF draft lets a server do).
 */

import { type NamedPolicy, takeEvery } from '../../bench/lib/two-window-server.js';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { seconds } from '../../src/server/headers/quota.js';
import { type AlgorithmState, dialects, resolvePolicy } from '../../src/server/index.js';

export type { NamedPolicy };

export interface MultiWindowOptions {
  mode?: 'all' | 'binding' | 'draft-6';
  oneWayMs?: number;
}

/** A transport (fetch-like) over `policies`, and what it admitted and refused. */
export function multiWindowServer(
  clock: ManualClock,
  policies: readonly NamedPolicy[],
  o: MultiWindowOptions = {},
) {
  const mode = o.mode ?? 'all';
  const oneWayMs = o.oneWayMs ?? 1;
  const resolved = policies.map((p) => resolvePolicy({ ...p.policy, name: p.name }, p.algorithm));
  const states: AlgorithmState[] = resolved.map(() => undefined);
  const origin = clock.now();
  const admittedAt: number[] = [];
  const refusedAt: number[] = [];
  const fetch = async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    await clock.sleep(oneWayMs);
    const now = clock.now() - origin;
    const { allowed, decisions, retryAfterMs } = takeEvery(resolved, states, now);
    const policyItems: string[] = [];
    const counterItems: Array<{
      value: string;
      remaining: number;
      resetMs: number;
      limit: number;
      q: string;
    }> = [];
    decisions.forEach((decision, i) => {
      const input = { policy: resolved[i]!, decision, wallNowMs: clock.wallNow() };
      for (const [name, value] of dialects.ietf(input)) {
        if (name.toLowerCase() === 'ratelimit-policy') policyItems.push(value);
        else
          counterItems.push({
            value,
            remaining: decision.remaining,
            resetMs: decision.resetMs,
            limit: resolved[i]!.limit.limit,
            q: policyItems[policyItems.length - 1]!.replace(/^"[^"]*";q=/, '').replace(';w=', ';w='),
          });
      }
    });
    // The binding window: the fewest left, ties to the later reset (as the client reads it).
    const binding = counterItems.reduce((a, b) =>
      b.remaining < a.remaining || (b.remaining === a.remaining && b.resetMs > a.resetMs) ? b : a,
    );
    const headers = new Headers({ date: new Date(clock.wallNow()).toUTCString() });
    if (mode === 'draft-6') {
      // drafts 03–06: the binding window's limit first, then every quota policy; its counters.
      headers.set('ratelimit-limit', [String(binding.limit), ...counterItems.map((c) => c.q)].join(', '));
      headers.set('ratelimit-remaining', String(binding.remaining));
      headers.set('ratelimit-reset', String(seconds(binding.resetMs)));
    } else {
      headers.set('ratelimit-policy', policyItems.join(', '));
      headers.set('ratelimit', (mode === 'all' ? counterItems : [binding]).map((c) => c.value).join(', '));
    }
    (allowed ? admittedAt : refusedAt).push(now);
    if (!allowed) headers.set('retry-after', String(Math.max(1, seconds(retryAfterMs))));
    await clock.sleep(oneWayMs);
    if (init?.signal?.aborted) throw init.signal.reason;
    return new Response(null, { status: allowed ? 200 : 429, headers });
  };
  return { fetch, admittedAt, refusedAt };
}

/**
 * `n` calls from `callers` callers through `fetch` on `clock`, moved `stepMs` (5) at a time until
 * every call settled, or `maxMs` (600 s) passed (the calls still waiting are then aborted: the run
 * ends unfinished). `at.read(fetch)` is called once when the run is `at.ms` in (for a `stats()`
 * reading). Resolves with the errors the calls ended with.
 */
export async function driveCalls(
  clock: ManualClock,
  fetch: ReturnType<typeof createFetch>,
  c: {
    n: number;
    callers: number;
    stepMs?: number;
    maxMs?: number;
    at?: { ms: number; read: (fetch: ReturnType<typeof createFetch>) => void };
  },
): Promise<unknown[]> {
  const errors: unknown[] = [];
  const stop = new AbortController();
  let next = 0;
  const caller = async () => {
    while (next < c.n && !stop.signal.aborted) {
      next++;
      try {
        await fetch('http://api.test/items', { signal: stop.signal });
      } catch (e) {
        errors.push(e);
      }
    }
  };
  let done = false;
  const all = Promise.all(Array.from({ length: c.callers }, caller)).then(() => {
    done = true;
  });
  const stepMs = c.stepMs ?? 5;
  const maxMs = c.maxMs ?? 600_000;
  for (let elapsed = 0; !done && elapsed < maxMs; ) {
    await clock.advance(stepMs);
    elapsed += stepMs;
    if (c.at && elapsed === c.at.ms) c.at.read(fetch);
  }
  stop.abort();
  for (let ms = 0; !done && ms < 60_000; ms += stepMs) await clock.advance(stepMs);
  await all;
  return errors;
}

/**
 * `n` calls from `callers` callers through `createFetch` (unconfigured unless `options` say
 * otherwise) against `policies` (see {@link driveCalls}).
 */
export async function runBatch(c: {
  policies: readonly NamedPolicy[];
  mode?: MultiWindowOptions['mode'];
  n: number;
  callers: number;
  stepMs?: number;
  options?: Partial<Parameters<typeof createFetch>[0]>;
  at?: { ms: number; read: (fetch: ReturnType<typeof createFetch>) => void };
}) {
  const start = 10_000_000;
  const clock = new ManualClock(start, Date.UTC(2026, 0, 1) + start);
  const server = multiWindowServer(clock, c.policies, { mode: c.mode ?? 'all' });
  const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5, ...c.options });
  const errors = await driveCalls(clock, fetch, c);
  return { ...server, errors, fetch };
}

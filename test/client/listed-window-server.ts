/**
 * A server with several limits on one key that lists them all and states the counters of some, on
 * the manual clock: the shape of {@link ./multi-window-server.ts} (each request must pass every
 * policy and is counted by them all or by none; the reference server's algorithms decide), with
 * what a review of listed windows needs beside it:
 *
 * - `phases`: the server a deploy puts in place at `fromMs` (a policy added, removed, raised); with
 *   `keep`, a policy of the same name and algorithm keeps its count across the deploy;
 * - `foreign`: another client's calls, taken at a given time from every policy or from some (a
 *   quota it shares with this client, such as an organisation's);
 * - `partitionKeys`: an IETF `pk` written on a policy's items.
 *
 * `mode` says how the lists reach the client: `all` (every policy's counters in `RateLimit`),
 * `binding` (`RateLimit-Policy` lists every policy, `RateLimit` names only the one with the fewest
 * units left, ties to the later reset, as the IETF draft lets a server do), `draft-6`
 * (`RateLimit-Limit: <binding limit>, q;w=…, …` with the binding window's `-Remaining` and
 * `-Reset`), `none` (no field but a refusal's `Retry-After`: what a client that reads no counters
 * learns from). Time is counted from the server's creation; a refusal's `Retry-After` is the
 * longest wait of the policies that refused (whole seconds, at least 1).
 */

import { type NamedPolicy, takeEvery } from '../../bench/lib/two-window-server.js';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { quotaOf, seconds } from '../../src/server/headers/quota.js';
import { type AlgorithmState, type ResolvedPolicy, resolvePolicy } from '../../src/server/index.js';
import { driveCalls } from './multi-window-server.js';

export type { NamedPolicy };

/** The server from `fromMs` (ms from its creation) on. */
export interface Phase {
  fromMs: number;
  policies: readonly NamedPolicy[];
  /** Policies of the phase before with the same name and algorithm keep their count (a plan change, not a restart). */
  keep?: boolean;
}

export interface ListedServerOptions {
  phases: readonly Phase[];
  mode: 'all' | 'binding' | 'draft-6' | 'none';
  oneWayMs?: number;
  /** Another client's calls: `units` taken one by one at `atMs`, from every policy or from those in `only`. */
  foreign?: ReadonlyArray<{ atMs: number; units: number; only?: readonly string[] }>;
  /** By policy name: an IETF partition key (`pk`), as a Byte Sequence's base64. */
  partitionKeys?: Readonly<Record<string, string>>;
}

interface Active {
  phase: Phase;
  resolved: ResolvedPolicy[];
  states: AlgorithmState[];
}

/** A transport (fetch-like) over the phases, and what it admitted and refused (ms from its creation). */
export function listedWindowServer(clock: ManualClock, o: ListedServerOptions) {
  const oneWayMs = o.oneWayMs ?? 1;
  const origin = clock.now();
  const admittedAt: number[] = [];
  const refusedAt: number[] = [];
  /** For each refusal, the policies that refused it. */
  const refusedBy: string[][] = [];
  /** For each of `foreign`, the calls the server admitted. */
  const foreignAdmitted: number[] = [];
  const activate = (phase: Phase, before: Active | null): Active => {
    const resolved = phase.policies.map((p) => resolvePolicy({ ...p.policy, name: p.name }, p.algorithm));
    const states = phase.policies.map((p): AlgorithmState => {
      if (!phase.keep || before === null) return undefined;
      const i = before.phase.policies.findIndex((b) => b.name === p.name && b.algorithm === p.algorithm);
      return i < 0 ? undefined : before.states[i];
    });
    return { phase, resolved, states };
  };
  let index = 0;
  let active = activate(o.phases[0]!, null);
  let foreignDone = 0;
  /** The deploys and the other client's calls due by `now`, in order. */
  const catchUp = (now: number) => {
    while (index + 1 < o.phases.length && now >= o.phases[index + 1]!.fromMs) {
      index++;
      active = activate(o.phases[index]!, active);
    }
    const foreign = o.foreign ?? [];
    while (foreignDone < foreign.length && now >= foreign[foreignDone]!.atMs) {
      const { units, only, atMs } = foreign[foreignDone]!;
      const picked = active.resolved.flatMap((p, i) =>
        only === undefined || only.includes(p.name) ? [i] : [],
      );
      const resolved = picked.map((i) => active.resolved[i]!);
      const states = picked.map((i) => active.states[i]);
      let admitted = 0;
      for (let i = 0; i < units; i++) if (takeEvery(resolved, states, atMs).allowed) admitted++;
      picked.forEach((i, k) => {
        active.states[i] = states[k];
      });
      foreignAdmitted.push(admitted);
      foreignDone++;
    }
  };
  const fetch = async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    await clock.sleep(oneWayMs);
    const now = clock.now() - origin;
    catchUp(now);
    const { resolved, states } = active;
    const { allowed, decisions, retryAfterMs } = takeEvery(resolved, states, now);
    const counters = decisions.map((decision, i) => ({ policy: resolved[i]!, decision }));
    // The binding window: the fewest left, ties to the later reset (as the client reads it).
    const binding = counters.reduce((a, b) =>
      b.decision.remaining < a.decision.remaining ||
      (b.decision.remaining === a.decision.remaining && b.decision.resetMs > a.decision.resetMs)
        ? b
        : a,
    );
    const headers = new Headers({ date: new Date(clock.wallNow()).toUTCString() });
    const pk = (name: string) =>
      o.partitionKeys?.[name] === undefined ? '' : `;pk=:${o.partitionKeys[name]}:`;
    if (o.mode === 'draft-6') {
      const list = resolved.map((p) => quotaOf(p.limit)).map(({ q, w }) => `${q};w=${w}`);
      const limit = Math.floor(binding.policy.limit.limit + 1e-9);
      headers.set('ratelimit-limit', [String(limit), ...list].join(', '));
      headers.set('ratelimit-remaining', String(binding.decision.remaining));
      headers.set('ratelimit-reset', String(seconds(binding.decision.resetMs)));
    } else if (o.mode !== 'none') {
      const list = resolved.map((p) => ({ name: p.name, ...quotaOf(p.limit) }));
      headers.set(
        'ratelimit-policy',
        list.map((l) => `"${l.name}";q=${l.q};w=${l.w}${pk(l.name)}`).join(', '),
      );
      const named = o.mode === 'all' ? counters : [binding];
      const items = named.map(
        (c) =>
          `"${c.policy.name}";r=${c.decision.remaining};t=${seconds(c.decision.resetMs)}${pk(c.policy.name)}`,
      );
      headers.set('ratelimit', items.join(', '));
    }
    (allowed ? admittedAt : refusedAt).push(now);
    if (!allowed) {
      refusedBy.push(counters.filter((c) => !c.decision.allowed).map((c) => c.policy.name));
      headers.set('retry-after', String(Math.max(1, seconds(retryAfterMs))));
    }
    await clock.sleep(oneWayMs);
    if (init?.signal?.aborted) throw init.signal.reason;
    return new Response(null, { status: allowed ? 200 : 429, headers });
  };
  return { fetch, admittedAt, refusedAt, refusedBy, foreignAdmitted };
}

/**
 * `n` calls from `callers` callers through one unconfigured `createFetch` against the server (see
 * `driveCalls`). `last`: when the server admitted the last call.
 */
export async function runListed(c: {
  server: ListedServerOptions;
  n: number;
  callers: number;
  stepMs?: number;
  maxMs?: number;
  at?: { ms: number; read: (fetch: ReturnType<typeof createFetch>) => void };
}) {
  const start = 10_000_000;
  const clock = new ManualClock(start, Date.UTC(2026, 0, 1) + start);
  const server = listedWindowServer(clock, c.server);
  const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5 });
  const errors = await driveCalls(clock, fetch, c);
  const last = server.admittedAt.reduce((a, b) => Math.max(a, b), 0);
  return { ...server, errors, fetch, last };
}

/**
 * A server with two limits on one key at once (S6), which `rateLimit` does not offer (one policy
 * per key): each request must pass every policy, and is counted only by them all or by none.
 * Built on the reference server's own pieces: the pure algorithms decide, the `ietf` dialect writes
 * each policy's headers, and the lists are joined into one field per name:
 * `RateLimit-Policy: "burst";q=100;w=1, "long";q=250;w=5` and `RateLimit: "burst";r=..;t=.., "long";r=..;t=..`.
 * A refusal answers 429 with `Retry-After` = the longest wait of the policies that refused (whole
 * seconds, at least 1), as the reference server does.
 *
 * Time is taken from the first request, so a window policy's first window starts with it.
 */
import { createServer } from 'node:http';
import {
  type AlgorithmName,
  type AlgorithmState,
  algorithms,
  type Decision,
  dialects,
  type Policy,
  type ResolvedPolicy,
  resolvePolicy,
} from 'headway/server';
import { systemClock } from '../../src/core/clock.js';
import { seconds } from '../../src/server/headers/quota.js';
import type { BenchServer } from './http-run.js';
import { listenCounted } from './loopback.js';

/** One of the server's limits. */
export interface NamedPolicy {
  name: string;
  algorithm: AlgorithmName;
  policy: Policy;
}

/** One request's verdict under every policy: whether all admitted it, and each policy's decision. */
export interface EveryTake {
  allowed: boolean;
  decisions: Decision[];
  /** The longest wait of the policies that refused (0 when all admitted it). */
  retryAfterMs: number;
}

/**
 * Takes one unit of every policy at `now` (`states` updated in place): counted by them all or by
 * none. A refusal adds nothing, so a refused take's state (refill, roll-over) is kept; a take that
 * would have passed is dropped when another policy refused, and its count shown as before it.
 */
export function takeEvery(
  resolved: readonly ResolvedPolicy[],
  states: AlgorithmState[],
  now: number,
): EveryTake {
  const takes = resolved.map((p, i) => algorithms[p.limit.algorithm].take(states[i], p.limit, now, 1));
  const allowed = takes.every((t) => t.decision.allowed);
  let retryAfterMs = 0;
  const decisions = takes.map((t, i) => {
    if (allowed || !t.decision.allowed) states[i] = t.state;
    if (!t.decision.allowed) retryAfterMs = Math.max(retryAfterMs, t.decision.retryAfterMs);
    return allowed || !t.decision.allowed
      ? t.decision
      : { ...t.decision, remaining: Math.min(t.decision.limit, t.decision.remaining + 1) };
  });
  return { allowed, decisions, retryAfterMs };
}

/** Starts a node:http server on loopback that enforces every policy of `policies` on one key. */
export function startMultiPolicyServer(policies: readonly NamedPolicy[]): Promise<BenchServer> {
  const resolved = policies.map((p) => resolvePolicy({ ...p.policy, name: p.name }, p.algorithm));
  const states: AlgorithmState[] = resolved.map(() => undefined);
  let origin: number | undefined;
  const server = createServer((_req, res) => {
    const clockNow = systemClock.now();
    origin ??= clockNow;
    const now = clockNow - origin;
    const { allowed, decisions, retryAfterMs } = takeEvery(resolved, states, now);
    const fields = new Map<string, string[]>();
    decisions.forEach((decision, i) => {
      const input = { policy: resolved[i]!, decision, wallNowMs: systemClock.wallNow() };
      for (const [name, value] of dialects.ietf(input))
        fields.set(name, [...(fields.get(name) ?? []), value]);
    });
    for (const [name, values] of fields) res.setHeader(name, values.join(', '));
    if (allowed) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    const retryAfterSeconds = Math.max(1, seconds(retryAfterMs));
    res
      .writeHead(429, { 'content-type': 'application/json', 'retry-after': String(retryAfterSeconds) })
      .end(JSON.stringify({ error: 'rate_limited', retryAfterSeconds }));
  });
  return listenCounted(server);
}

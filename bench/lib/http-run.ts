/**
 * One measured run of a client against a fresh server (the reference server, or any `BenchServer`
 * a scenario starts): `n` GETs driven by `workers` workers pulling from a shared counter, or all
 * fired at once (`workers: 'all'`).
 */
import { setMaxListeners } from 'node:events';
import { type ServeOptions, startServer } from 'headway/server';
import type { ClientContext, ClientSpec } from './clients.js';

export interface RunResult {
  wallMs: number;
  ok: number;
  failed: number;
  /** Calls that had not settled when the cap struck. */
  unfinished: number;
  /** Attempts the client sent (counted at its transport). */
  attempts: number;
  /** What the server saw. */
  allowed: number;
  refused: number;
  timedOut: boolean;
  /** `performance.now()` when the first call was started (S6 reads a window's phase from it). */
  startedAt: number;
}

/** A server a run can target: the reference server, or another project's limiter (S6). */
export interface BenchServer {
  /** `http://host:port`. */
  url: string;
  close(): Promise<void>;
  /** What the server answered so far: admitted and refused (429) requests. */
  metrics(): { allowed: number; refused: number };
}

export interface RunPlan {
  n: number;
  workers: number | 'all';
  /** Give up waiting after this long (the run is reported as timed out). */
  capMs: number;
  /** Options of the reference server, or a function that starts another server. */
  server: Partial<ServeOptions> | (() => Promise<BenchServer>);
  known: ClientContext['known'];
  /** Hand clients a signal aborted when the run ends (S1, S1b); S4 passes false so no transport is wrapped. @default true */
  stoppable?: boolean;
  /** Awaited just before the first call (S6: start at a window boundary). @default none */
  beforeStart?: () => Promise<void>;
}

/** Runs `plan` once with a fresh client of `spec` and a fresh server; never throws for a failed call. */
export async function runClient(spec: ClientSpec, plan: RunPlan): Promise<RunResult> {
  const server: BenchServer =
    typeof plan.server === 'function' ? await plan.server() : await startServer({ port: 0, ...plan.server });
  const url = `${server.url}/items`;
  let attempts = 0;
  const run = new AbortController();
  setMaxListeners(0, run.signal); // one listener per call in flight
  const client = spec.make({
    known: plan.known,
    onAttempt: () => {
      attempts++;
    },
    ...(plan.stoppable === false ? {} : { signal: run.signal }),
  });
  let ok = 0;
  let failed = 0;
  let next = 0;
  let stopped = false;
  const one = async () => {
    const outcome = await client.get(url);
    if (outcome.ok) ok++;
    else failed++;
  };
  const worker = async () => {
    while (!stopped && next < plan.n) {
      next++;
      await one();
    }
  };
  await plan.beforeStart?.();
  let cap: NodeJS.Timeout | undefined;
  const capped = new Promise<'cap'>((resolve) => {
    cap = setTimeout(() => resolve('cap'), plan.capMs);
  });
  const start = performance.now();
  const work =
    plan.workers === 'all'
      ? Promise.all(Array.from({ length: plan.n }, one))
      : Promise.all(Array.from({ length: Math.min(plan.workers, plan.n) }, worker));
  const finished = await Promise.race([work.then(() => 'done' as const), capped]);
  const wallMs = performance.now() - start;
  clearTimeout(cap);
  stopped = true;
  const { allowed, refused } = server.metrics();
  const attemptsSoFar = attempts;
  run.abort(new Error('run over'));
  await Promise.race([client.close(), new Promise((resolve) => setTimeout(resolve, 1000))]);
  await server.close();
  return {
    wallMs,
    ok,
    failed,
    unfinished: plan.n - ok - failed,
    attempts: attemptsSoFar,
    allowed,
    refused,
    timedOut: finished === 'cap',
    startedAt: start,
  };
}

/** A few calls of every client against an unlimited server: JIT and sockets warm before measuring. */
export async function warmUp(specs: readonly ClientSpec[], n = 30): Promise<void> {
  for (const spec of specs)
    await runClient(spec, {
      n,
      workers: 8,
      capMs: 10_000,
      server: { rate: 1e9, burst: 1e9 },
      known: { rate: 1e9, burst: 1e9 },
    });
}

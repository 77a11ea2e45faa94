/**
 * Issue #6, faults, end to end: a real redis-server is SIGKILLed in the middle of a steady stream
 * of real loopback HTTP traffic, then restarted on the same port (empty data, empty script cache).
 *
 * - Server face: `startServer` with a Redis store and two policies, one failing open (`api`) and one
 *   failing closed (`login`). Every answer of the steady stream, before, during and after the outage, arrives within
 *   `storeTimeoutMs` plus a margin; the outage answers are the documented ones; once Redis is back
 *   the decisions come from it again (headers, refusals, keys in Redis).
 * - Client face: `createFetch` with a Redis store against a server without one (so the client's own
 *   pacing is what is measured). During the outage it paces at `rate / expectedWorkers`, no call is
 *   rejected or left hanging, and once Redis is back it books from the shared bucket again at `rate`.
 * - A Redis that hangs instead (SIGSTOP: connections open, nothing answered): the client's calls
 *   still settle, paced at the fallback rate, and sharing resumes after SIGCONT.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetch, type HeadwayFetch } from '../../src/client/create-fetch.js';
import { redisStore } from '../../src/redis/index.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { uniquePrefix } from '../support/redis.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';

// This file kills and restarts Redis, so it always runs its own server, never REDIS_URL's.
let redis: RedisServer;
const clients: Redis[] = [];
const servers: RunningServer[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
}, 15_000);
afterAll(async () => {
  for (const client of clients) client.disconnect();
  for (const server of servers) await server.close();
  await redis.stop();
});

/** A client as the README recommends: no offline queue, so calls fail at once while Redis is down. */
async function connect(): Promise<Redis> {
  const client = new Redis(redis.url, { enableOfflineQueue: false, lazyConnect: true });
  client.on('error', () => undefined); // reconnection noise; the store reports failures itself
  clients.push(client);
  await client.connect();
  return client;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
const now = () => performance.now();

/**
 * Scripts (`EVALSHA`, `EVAL`) the Redis behind `client` has run since it started: each holds the
 * decisions or bookings of one turn of the event loop (a gate read is a run of its own). Unlike
 * looking for keys, this does not depend on how soon after the last call one looks (a token
 * bucket's key expires once it is full again: 100–200 ms).
 */
async function scriptRunsOnRedis(client: Redis): Promise<number> {
  const stats = await client.info('commandstats');
  const calls = (name: string) =>
    Number(stats.match(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm'))?.[1] ?? 0);
  return calls('evalsha') + calls('eval');
}

/** The longest `ms` of `answers` (0 when there are none). */
const slowestOf = (answers: Array<{ ms: number }>) => Math.max(0, ...answers.map((a) => a.ms));

/** Completions with `from ≤ at < to`. */
const countIn = (times: number[], from: number, to: number) =>
  times.filter((t) => t >= from && t < to).length;

/**
 * Records when this process's event loop ran late by more than 10 ms (a 10 ms tick that came
 * over 20 ms after the last): time in which neither the in-process server nor its client could
 * run, on a busy shared machine. An answer's time less the stalls it overlapped is the time the
 * server had to answer it.
 */
function watchStalls(): { stalls: Array<{ at: number; ms: number }>; stop(): void } {
  const stalls: Array<{ at: number; ms: number }> = [];
  let last = now();
  const timer = setInterval(() => {
    const t = now();
    if (t - last > 20) stalls.push({ at: last, ms: t - last - 10 });
    last = t;
  }, 10);
  return { stalls, stop: () => clearInterval(timer) };
}

/** Ms of `stalls` inside `[from, to)`. */
const stalledWithin = (stalls: Array<{ at: number; ms: number }>, from: number, to: number) =>
  stalls.reduce((sum, g) => sum + Math.max(0, Math.min(to, g.at + g.ms) - Math.max(from, g.at)), 0);

/** Moments of the fault, in `performance.now()` ms. */
interface Fault {
  killStart: number;
  killDone: number;
  restartStart: number;
  restartDone: number;
}

/** Kills Redis at `killAt`, restarts it at `restartAt` (ms after `start`), and says when each happened. */
async function injectFault(start: number, killAt: number, restartAt: number): Promise<Fault> {
  await sleep(start + killAt - now());
  const killStart = now();
  await redis.kill();
  const killDone = now();
  await sleep(start + restartAt - now());
  const restartStart = now();
  await redis.restart();
  return { killStart, killDone, restartStart, restartDone: now() };
}

/** What ten back-to-back callers saw, and the client's `shared` state sampled every 20 ms. */
interface ClientRun {
  completions: number[];
  failures: unknown[];
  issued: number;
  settled: number;
  longestCall: number;
  samples: Array<{ at: number; degraded: boolean; failures: number }>;
}

/** Ten callers send one call after another (each bounded at 3 s) until `stopAt()`; bounded at 500 calls each. */
async function driveClient(fetch: HeadwayFetch, url: string, stopAt: () => number): Promise<ClientRun> {
  const run: ClientRun = {
    completions: [],
    failures: [],
    issued: 0,
    settled: 0,
    longestCall: 0,
    samples: [],
  };
  const caller = async () => {
    for (let i = 0; i < 500 && now() < stopAt(); i++) {
      run.issued++;
      const sentAt = now();
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
        await res.arrayBuffer();
        if (res.status !== 200) run.failures.push(res.status);
        run.completions.push(now());
      } catch (error) {
        run.failures.push(error);
      }
      run.longestCall = Math.max(run.longestCall, now() - sentAt);
      run.settled++;
    }
  };
  const sampler = async () => {
    while (now() < stopAt()) {
      const shared = fetch.stats()[0]?.shared;
      if (shared) run.samples.push({ at: now(), ...shared });
      await sleep(20);
    }
  };
  await Promise.all([...Array.from({ length: 10 }, caller), sampler()]);
  return run;
}

const STORE_TIMEOUT_MS = 100;
/** Loopback HTTP and the event loop on top of the store timeout (stalls of the process not counted). */
const ANSWER_MARGIN_MS = 150;
/** A request without an answer by then counts as hanging (status 0). */
const HANG_MS = 2000;

describe('Redis SIGKILLed mid-run, then restarted on the same port', () => {
  it('server: answers within storeTimeoutMs + margin, open or closed per policy, then decides on Redis again', async () => {
    const client = await connect();
    const prefix = uniquePrefix('fault-server');
    const api = { rate: 100, burst: 20, name: 'api' };
    const login = { rate: 100, burst: 20, name: 'login', failClosed: true };
    // Room for the whole warm-up (3 rounds of 8) at any speed: with `api`'s burst of 20, a fast
    // machine sends the 24 before 4 units refill and the last ones are refused.
    const warmUp = { rate: 100, burst: 24, name: 'warm' };
    const storeErrors: string[] = [];
    const server = await startServer({
      keyHeader: 'x-key',
      limiter: {
        store: redisStore({ client, prefix, commandTimeoutMs: STORE_TIMEOUT_MS }),
        storeTimeoutMs: STORE_TIMEOUT_MS,
        policyFor: (key) => (key === 'x-key=login' ? login : key === 'x-key=warm' ? warmUp : api),
        onDecision: (event) => {
          if (event.storeError) storeErrors.push(event.storeError.code);
        },
      },
    });
    servers.push(server);

    interface Answer {
      key: 'api' | 'login' | 'warm';
      sentAt: number;
      ms: number;
      status: number;
      policy: string | null;
      rateLimit: string | null;
      retryAfter: string | null;
      body: string;
    }
    const ask = async (key: Answer['key']): Promise<Answer> => {
      const sentAt = now();
      try {
        const res = await fetch(`${server.url}/items`, {
          headers: { 'x-key': key },
          signal: AbortSignal.timeout(HANG_MS),
        });
        const body = await res.text();
        const h = res.headers;
        return {
          key,
          sentAt,
          ms: now() - sentAt,
          status: res.status,
          policy: h.get('ratelimit-policy'),
          rateLimit: h.get('ratelimit'),
          retryAfter: h.get('retry-after'),
          body,
        };
      } catch {
        return {
          key,
          sentAt,
          ms: now() - sentAt,
          status: 0,
          policy: null,
          rateLimit: null,
          retryAfter: null,
          body: '',
        };
      }
    };

    // Warm up HTTP (connections, JIT) and load the script, on a key of its own: a cold first
    // request can take 100–300 ms on a 2-core machine for reasons that have nothing to do with Redis.
    for (let round = 0; round < 3; round++) {
      const warm = await Promise.all(Array.from({ length: 8 }, () => ask('warm')));
      expect(warm.every((a) => a.status === 200)).toBe(true);
    }
    expect(storeErrors).toEqual([]);

    // 50 requests/s per key (half the policy's rate: nothing is refused while Redis decides), on a
    // fixed schedule: kill at 1 s, restart at 2.5 s, stop 2 s after the restart.
    const watch = watchStalls();
    const start = now();
    const fault = injectFault(start, 1000, 2500);
    const pending: Promise<Answer>[] = [];
    let issued = 0;
    let stopAt = Number.POSITIVE_INFINITY;
    void fault.then((f) => {
      stopAt = f.restartDone + 2000;
    });
    for (let i = 0; i < 400 && now() < stopAt; i++) {
      await sleep(start + i * 20 - now());
      for (const key of ['api', 'login'] as const) {
        issued++;
        pending.push(ask(key));
      }
    }
    const { killStart, killDone, restartStart, restartDone } = await fault;
    const answers = await Promise.all(pending);
    watch.stop();
    expect(answers).toHaveLength(issued);

    // Where an answer sits on the timeline, for failure messages.
    const at = (t: number) => `+${(t - start).toFixed(0)} ms`;
    const stalledDuring = (a: Answer) => stalledWithin(watch.stalls, a.sentAt, a.sentAt + a.ms);
    const where = (a: Answer) =>
      `${a.key} sent ${at(a.sentAt)}, ${a.ms.toFixed(0)} ms of which the event loop stalled ${stalledDuring(a).toFixed(0)} ms (kill ${at(killStart)}–${at(killDone)}, restart ${at(restartStart)}–${at(restartDone)})`;

    // No lost or hanging call, and every answer within the store timeout plus the margin, not
    // counting time in which this process did not run (a loaded machine). Without the store
    // timeout, the calls in flight at the kill would wait for Redis to come back (1.5 s).
    expect(answers.filter((a) => a.status === 0).map(where)).toEqual([]);
    const slowest = slowestOf(answers);
    const tooSlow = answers.filter((a) => a.ms - stalledDuring(a) >= STORE_TIMEOUT_MS + ANSWER_MARGIN_MS);
    expect(tooSlow.map(where)).toEqual([]);

    for (const a of answers) expect(a.policy).toBe(`"${a.key}";q=100;w=1`);

    // Before the kill: Redis decides (a `RateLimit` header), and admits.
    const before = answers.filter((a) => a.sentAt + a.ms < killStart);
    expect(before.length).toBeGreaterThan(80);
    for (const a of before) expect([a.status, a.rateLimit !== null], where(a)).toEqual([200, true]);

    // During the outage: no decision; `api` is admitted, `login` refused with 503 + Retry-After: 1.
    const outage = answers.filter((a) => a.sentAt >= killDone && a.sentAt + a.ms < restartStart);
    expect(outage.length).toBeGreaterThan(100);
    for (const a of outage) {
      expect(a.rateLimit, where(a)).toBeNull();
      if (a.key === 'api') expect(a.status, where(a)).toBe(200);
      else {
        expect([a.status, a.retryAfter], where(a)).toEqual([503, '1']);
        expect(JSON.parse(a.body)).toMatchObject({ error: 'rate_limiter_unavailable', policy: 'login' });
      }
    }
    // In flight when Redis died: ioredis keeps unanswered commands to resend, so these wait for the timeout.
    const atKill = answers.filter((a) => a.sentAt < killDone && a.sentAt + a.ms >= killStart);

    // After the restart: each key gets decisions from Redis again, and keeps getting them.
    const recoveryMs: Record<string, number> = {};
    for (const key of ['api', 'login'] as const) {
      const after = answers.filter((a) => a.key === key && a.sentAt >= restartDone);
      const first = after.findIndex((a) => a.rateLimit !== null);
      expect(first).toBeGreaterThanOrEqual(0);
      recoveryMs[key] = after[first]!.sentAt - restartDone;
      expect(recoveryMs[key]).toBeLessThan(1500);
      for (const a of after.slice(first)) {
        expect([a.status, a.rateLimit !== null], where(a)).toEqual([200, true]);
      }
    }
    // Every answer without a decision was a counted store error: most failed at once (no connection),
    // those in flight when Redis died waited for the timeout (ioredis keeps them to resend).
    const undecided = answers.filter((a) => a.rateLimit === null).length;
    expect(server.metrics().storeErrors).toBe(undecided);
    expect(storeErrors).toHaveLength(undecided);
    const timeouts = storeErrors.filter((code) => code === 'HEADWAY_STORE_TIMEOUT').length;
    expect(storeErrors.filter((code) => code === 'HEADWAY_STORE_ERROR')).toHaveLength(undecided - timeouts);
    expect(timeouts).toBeLessThanOrEqual(atKill.length);

    // Redis enforces again: a burst beyond the limit is refused with 429 (not 503), decided on Redis.
    const decidedAfterRestart = answers.filter((a) => a.sentAt >= restartDone && a.rateLimit !== null).length;
    for (const key of ['api', 'login'] as const) {
      const burst = await Promise.all(Array.from({ length: 40 }, () => ask(key)));
      const statuses = burst.map((a) => a.status);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(20);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
      expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
      // Every answer of the burst was decided by Redis within `storeTimeoutMs` (a decision carries
      // `RateLimit`). Its answer times are not bounded here: 40 requests at once open ~40 new
      // connections in this one process, and on 2 cores that alone has taken up to 255 ms, while
      // the store calls took under 45 ms.
      for (const a of burst) expect(a.rateLimit, where(a)).not.toBeNull();
    }
    // The restarted Redis ran the scripts of those decisions: at least one run for the answers
    // decided since the restart and one per burst (the takes of one turn share a run), and the
    // burst's 429s can only come from Redis (failing open answers 200, failing closed 503).
    expect(await scriptRunsOnRedis(client)).toBeGreaterThanOrEqual((decidedAfterRestart > 0 ? 1 : 0) + 2);

    console.log(
      `server: ${answers.length} answers, slowest ${slowest.toFixed(1)} ms; in flight at the kill ${atKill.length}, slowest ${slowestOf(atKill).toFixed(1)} ms ` +
        `(${timeouts} store timeouts); outage ${outage.length}, slowest ${slowestOf(outage).toFixed(1)} ms (${undecided - timeouts} immediate store errors in all); ` +
        `Redis down ${(restartStart - killStart).toFixed(0)} ms; longest event-loop stall ${slowestOf(watch.stalls).toFixed(0)} ms (${watch.stalls.length} over 10 ms); decisions back ${recoveryMs.api!.toFixed(0)} ms (api) / ${recoveryMs.login!.toFixed(0)} ms (login) after restart`,
    );
  }, 20_000);

  it('client: paces at rate / expectedWorkers while Redis is down, loses and hangs nothing, and shares again once it is back', async () => {
    const client = await connect();
    const prefix = uniquePrefix('fault-client');
    // No store on the server, and a limit far above the client's: only the client's pacing shows.
    const server = await startServer({ rate: 100_000, burst: 100_000 });
    servers.push(server);
    const rate = 100;
    const burst = 10;
    const expectedWorkers = 4;
    const fallbackRate = rate / expectedWorkers;
    const fallbackBurst = burst / expectedWorkers;
    const fetch = createFetch({
      rate,
      burst,
      expectedWorkers,
      store: redisStore({ client, prefix, commandTimeoutMs: STORE_TIMEOUT_MS }),
    });

    // Ten callers, each sending one call after another, keep the key's queue full: completions
    // per second are the client's pacing. Kill at 1.5 s, restart at 3.5 s, stop 3 s after that.
    const start = now();
    const fault = injectFault(start, 1500, 3500);
    let stopAt = Number.POSITIVE_INFINITY;
    void fault.then((f) => {
      stopAt = f.restartDone + 3000;
    });
    const { completions, failures, issued, settled, longestCall, samples } = await driveClient(
      fetch,
      `${server.url}/items`,
      () => stopAt,
    );
    const { killDone, restartStart, restartDone } = await fault;
    const end = Math.min(now(), stopAt);

    // Nothing rejected, nothing lost, nothing hanging.
    expect(failures).toEqual([]);
    expect(settled).toBe(issued);
    expect(completions).toHaveLength(issued);

    // Before the kill: the shared bucket paces at `rate`.
    const beforeRate = countIn(completions, start + 500, start + 1500);
    expect(beforeRate).toBeGreaterThanOrEqual(0.7 * rate);
    expect(beforeRate).toBeLessThanOrEqual(1.2 * rate + burst);

    // During the outage: degraded, and calls complete at the fallback rate.
    const during = samples.filter((s) => s.at >= killDone + 100 && s.at < restartStart);
    expect(during.some((s) => s.degraded)).toBe(true);
    const window = (restartStart - killDone) / 1000;
    const outageCompletions = countIn(completions, killDone, restartStart);
    expect(outageCompletions).toBeGreaterThanOrEqual(0.5 * fallbackRate * window);
    expect(outageCompletions).toBeLessThanOrEqual(1.5 * fallbackRate * window + fallbackBurst);

    // After the restart: the last store failure comes soon, then shared booking for good.
    const failuresAtRestart = samples.filter((s) => s.at < restartDone).at(-1)!.failures;
    expect(failuresAtRestart).toBeGreaterThan(0);
    const finalFailures = samples.at(-1)!.failures;
    // A dead store is tried about once a second, not once per call.
    expect(finalFailures).toBeLessThanOrEqual(Math.ceil(window) + 3);
    const lastFailure = samples.find((s) => s.at >= restartDone && s.failures === finalFailures)!;
    const recovered = samples.find((s) => s.at >= lastFailure.at && !s.degraded)!;
    const recoveryMs = recovered.at - restartDone;
    expect(recoveryMs).toBeLessThan(2000);
    for (const s of samples.filter((s) => s.at >= recovered.at)) {
      expect(s.degraded, `degraded at +${(s.at - restartDone).toFixed(0)} ms after the restart`).toBe(false);
    }
    // The last second runs at `rate` again, from Redis.
    const afterRate = countIn(completions, end - 1000, end);
    expect(afterRate).toBeGreaterThanOrEqual(0.7 * rate);
    expect(afterRate).toBeLessThanOrEqual(1.2 * rate + burst);
    // Each of those calls was booked on the restarted Redis (a gate read and a reservation).
    expect(await scriptRunsOnRedis(client)).toBeGreaterThanOrEqual(afterRate);

    console.log(
      `client: ${issued} calls, longest ${longestCall.toFixed(0)} ms; before ${beforeRate}/s; outage ${(outageCompletions / window).toFixed(1)}/s over ${window.toFixed(2)} s ` +
        `(fallback ${fallbackRate}/s); ${finalFailures} store failures (${failuresAtRestart} by restart); shared again ${recoveryMs.toFixed(0)} ms after restart; last second ${afterRate}/s`,
    );
  }, 20_000);

  it('client: a Redis that stops answering (SIGSTOP) costs a booking at most its timeout; every call settles, sharing resumes after SIGCONT', async () => {
    const client = await connect();
    const prefix = uniquePrefix('hang-client');
    const server = await startServer({ rate: 100_000, burst: 100_000 });
    servers.push(server);
    const rate = 100;
    const fallbackRate = rate / 4;
    const fetch = createFetch({
      rate,
      burst: 10,
      expectedWorkers: 4,
      store: redisStore({ client, prefix, commandTimeoutMs: STORE_TIMEOUT_MS }),
    });
    // Ten callers back to back for 4.5 s; Redis is stopped (connections open, nothing answered)
    // from 1 s to 2.5 s.
    const start = now();
    const stopAt = start + 4500;
    const fault = (async () => {
      await sleep(start + 1000 - now());
      const pausedAt = now();
      redis.pause();
      await sleep(start + 2500 - now());
      redis.resume();
      return { pausedAt, resumedAt: now() };
    })();
    const { completions, failures, issued, settled, longestCall, samples } = await driveClient(
      fetch,
      `${server.url}/items`,
      () => stopAt,
    );
    const { pausedAt, resumedAt } = await fault;

    expect(failures).toEqual([]);
    expect(settled).toBe(issued);
    // Ten callers queued behind 25/s wait up to ~400 ms for their turn, plus at most one store
    // timeout (100 ms) per booking: far from the 3 s abort.
    expect(longestCall).toBeLessThan(1500);
    const window = (resumedAt - pausedAt) / 1000;
    expect(samples.some((s) => s.at >= pausedAt && s.at < resumedAt && s.degraded)).toBe(true);
    const stalled = countIn(completions, pausedAt, resumedAt);
    expect(stalled).toBeGreaterThanOrEqual(0.5 * fallbackRate * window);
    // Shared again within 2 s of SIGCONT, and the last second at `rate`.
    const recovered = samples.find((s) => s.at >= resumedAt && !s.degraded);
    expect(recovered).toBeDefined();
    expect(recovered!.at - resumedAt).toBeLessThan(2000);
    const lastSecond = countIn(completions, stopAt - 1000, stopAt);
    expect(lastSecond).toBeGreaterThanOrEqual(0.7 * rate);

    console.log(
      `hanging Redis: ${issued} calls, longest ${longestCall.toFixed(0)} ms; ${(stalled / window).toFixed(1)}/s while stopped ` +
        `(fallback ${fallbackRate}/s); shared again ${(recovered!.at - resumedAt).toFixed(0)} ms after SIGCONT; last second ${lastSecond}/s`,
    );
  }, 20_000);
});

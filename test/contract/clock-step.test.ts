/**
 * The clock of a real server process steps back one hour and forward one day while a client talks
 * to it over 127.0.0.1 (issue #17; the manual-clock half is `test/reliability/clock-steps.test.ts`).
 * Every algorithm as `headway serve` on the memory store, and the reference server on the Redis
 * store, run under libfaketime (`test/support/faketime.ts`), all reading one offset file that the
 * test rewrites between requests; the test process keeps the real clock.
 *
 * The quota is 4 units with no refill to speak of during the test (one unit per 1000 s), so each
 * answer is exact: a step that removed units, added some beyond the burst or stretched a wait
 * shows as a wrong status or an insane header. Headway's client then talks to a stepping
 * `headway serve`: through the wall-clock steps, and with calls in flight over a monotonic day.
 *
 * Checked by breaking the code: with the memory store on `Date.now()` (unclamped, or clamped like
 * `steadyNow`) the wall-clock test fails; with non-idempotent calls retried, the in-flight test
 * fails whenever a POST was answered 408 (most runs: it depends on what is arriving at the step).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Agent, fetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { algorithmNames } from '../../src/core/algorithms/names.js';
import type { AlgorithmName } from '../../src/stores/store.js';
import { ClockFile, faketimeLibrary, releaseFaketime } from '../support/faketime.js';
import { redisUrl } from '../support/redis.js';

const library = faketimeLibrary();

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BURST = 4;
const quota = ['--rate', '0.001', '--burst', String(BURST), '--window-ms', '1000000'];
/** Longest sane `Retry-After`: one unit at 0.001/s, or a window and a unit's share of the next. */
const MAX_RETRY_AFTER_S = 1_250;
/** Longest sane reset: the bucket refilling from empty (4 units at 0.001/s). */
const MAX_RESET_S = 4_000;
/**
 * The algorithms tried on Redis: those whose state holds no window aligned on Redis's epoch clock.
 * A fixed window (and a sliding window counter's) starts every 1000 s of Redis `TIME`, so a run
 * could straddle a boundary by the date; their scripts read `TIME` the same way as these.
 */
const onRedis: AlgorithmName[] = ['token-bucket', 'gcra', 'sliding-log'];

interface Child {
  process: ChildProcess;
  /** The child's first stdout line. */
  ready: string;
  /** All the child has written to stderr so far. */
  stderr: () => string;
  exited: Promise<unknown[]>;
}

const children: Child[] = [];
const files: ClockFile[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.process.kill('SIGKILL');
  for (const file of files.splice(0)) file.remove();
});

async function start(clock: ClockFile, monotonic: boolean, args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    env: { ...clock.env(library!, monotonic), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = once(child, 'exit');
  void exited.then(() => releaseFaketime(child.pid));
  const entry: Child = { process: child, ready: '', stderr: () => stderr, exited };
  children.push(entry);
  const line = await Promise.race([
    once(createInterface({ input: child.stdout }), 'line').then(([text]) => text as string),
    exited.then(([code]) => {
      throw new Error(`${args.join(' ')} exited ${code} before it was ready: ${stderr}`);
    }),
  ]);
  entry.ready = line;
  return entry;
}

/**
 * `headway serve --port 0 …flags` under `clock`: its child, its URL, and `untilLogged(n)`, which
 * waits until the counts the server logs once a second add up to `n` decisions and returns them.
 */
async function serve(clock: ClockFile, monotonic: boolean, flags: string[]) {
  const child = await start(clock, monotonic, ['src/cli/main.ts', 'serve', '--port', '0', ...flags]);
  const url = child.ready.match(/listening on (\S+)$/)![1]!;
  const logged = () => {
    let allowed = 0;
    let refused = 0;
    for (const [, a, r] of child.stderr().matchAll(/allowed=(\d+) refused=(\d+)/g)) {
      allowed += Number(a);
      refused += Number(r);
    }
    return { allowed, refused };
  };
  const untilLogged = async (n: number) => {
    while (logged().allowed + logged().refused < n) await once(child.process.stderr!, 'data');
    return logged();
  };
  return { child, url, untilLogged };
}

/** One server per algorithm on each store, all under `clock`. */
async function startAll(clock: ClockFile, monotonic: boolean) {
  const serves = algorithmNames.map((algorithm) =>
    serve(clock, monotonic, ['--algorithm', algorithm, '--headers', 'x-ratelimit', ...quota]),
  );
  const redis = start(
    clock,
    monotonic,
    ['test/support/redis-serve.ts', '--algorithms', onRedis.join(), ...quota],
    { REDIS_SERVE_URL: redisUrl() },
  );
  const [all, redisChild] = [await Promise.all(serves), await redis];
  const memory = Object.fromEntries(algorithmNames.map((a, i) => [a, all[i]!.url])) as Record<
    AlgorithmName,
    string
  >;
  const redisUrls = JSON.parse(redisChild.ready.replace(/^READY /, '')) as Record<string, string>;
  return { memory, redis: redisUrls, children: [...all.map((s) => s.child), redisChild] };
}

/**
 * One GET, checked: answered 200 or 429; the `Date` header shows the child's stepped clock (so
 * the step took effect); the limit is the burst, the remaining units whole and within it; the
 * epoch reset counts from that `Date` and is within the refill time; a 429 says `Retry-After`
 * within one unit's wait. Returns the status.
 */
async function ask(url: string, offsetMs: number, dispatcher: Agent): Promise<number> {
  const response = await fetch(url, { dispatcher });
  await response.arrayBuffer();
  const header = (name: string) => response.headers.get(name);
  expect([200, 429]).toContain(response.status);
  const date = Date.parse(header('date') ?? '');
  expect(Math.abs(date - (Date.now() + offsetMs))).toBeLessThan(10 * 60_000);
  expect(header('x-ratelimit-limit')).toBe(String(BURST));
  const remaining = Number(header('x-ratelimit-remaining'));
  expect(Number.isInteger(remaining) && remaining >= 0 && remaining <= BURST).toBe(true);
  const resetInS = Number(header('x-ratelimit-reset')) - date / 1000;
  expect(resetInS).toBeGreaterThanOrEqual(-1);
  expect(resetInS).toBeLessThanOrEqual(MAX_RESET_S + 1);
  if (response.status === 429) {
    const retryAfter = Number(header('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= MAX_RETRY_AFTER_S).toBe(true);
  } else expect(header('retry-after')).toBeNull();
  return response.status;
}

/** `count` GETs to each server, in turn; the statuses per server. */
async function askEach(urls: Record<string, string>, count: number, offsetMs: number, dispatcher: Agent) {
  const statuses: Record<string, number[]> = {};
  for (const [algorithm, url] of Object.entries(urls)) {
    statuses[algorithm] = [];
    for (let i = 0; i < count; i++) statuses[algorithm].push(await ask(url, offsetMs, dispatcher));
  }
  return statuses;
}

/** The same statuses for every server of `urls`. */
const each = (urls: Record<string, string>, statuses: number[]) =>
  Object.fromEntries(Object.keys(urls).map((algorithm) => [algorithm, statuses]));

/** Stops every child with SIGINT; each exits 0 (closed cleanly, after the steps too). */
async function stopAll(list: Child[]) {
  for (const child of list) child.process.kill('SIGINT');
  for (const child of list) expect((await child.exited)[0]).toBe(0);
}

/** Headway's client over the real `fetch`, counting what it sends per URL (each call has its own). */
function countingClient() {
  const sends = new Map<string, number>();
  const fetch = createFetch({
    timeoutMs: 10_000,
    maxRetryAfterMs: 10_000,
    fetch: (input, init) => {
      sends.set(String(input), (sends.get(String(input)) ?? 0) + 1);
      return globalThis.fetch(input, init);
    },
  });
  return { fetch, sends };
}

const agents: Agent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
});

describe.skipIf(!library)('a real server process whose clock steps', () => {
  it('wall clock back one hour, forward one day, back again: no unit removed or added, every answer sane', async () => {
    const clock = new ClockFile();
    files.push(clock);
    const { memory, redis, children: list } = await startAll(clock, false);
    // Kept-alive connections: a wall-clock step leaves them alone.
    const agent = new Agent();
    agents.push(agent);
    for (const urls of [memory, redis]) {
      expect(await askEach(urls, 2, 0, agent)).toEqual(each(urls, [200, 200]));
    }
    clock.step(-HOUR);
    for (const urls of [memory, redis]) {
      // The two units left are still there, and no more: the step neither removed nor added any.
      expect(await askEach(urls, 3, -HOUR, agent)).toEqual(each(urls, [200, 200, 429]));
    }
    clock.step(DAY);
    for (const urls of [memory, redis]) {
      // A day on the wall clock is no time passing for the quota: nothing refilled.
      expect(await askEach(urls, 2, DAY, agent)).toEqual(each(urls, [429, 429]));
    }
    clock.step(0);
    for (const urls of [memory, redis]) {
      expect(await askEach(urls, 1, 0, agent)).toEqual(each(urls, [429]));
    }
    await stopAll(list);
  }, 120_000);

  it('every clock forward one day (monotonic too): memory refills to the burst and no more; Redis, on its own clock, not at all', async () => {
    const clock = new ClockFile();
    files.push(clock);
    const { memory, redis, children: list } = await startAll(clock, true);
    // A connection per request: when the monotonic clock jumps, every server timer fires at once,
    // keep-alive timeouts included, so an idle connection may close just as it is reused (a reset
    // a plain fetch does not retry; this test is about the quota, not that race).
    const agent = new Agent({ pipelining: 0 });
    agents.push(agent);
    for (const urls of [memory, redis]) {
      expect(await askEach(urls, BURST + 1, 0, agent)).toEqual(each(urls, [200, 200, 200, 200, 429]));
    }
    clock.step(DAY);
    // The memory store reads the process's monotonic clock: a day passed, the quota is whole again.
    expect(await askEach(memory, BURST + 2, DAY, agent)).toEqual(
      each(memory, [200, 200, 200, 200, 429, 429]),
    );
    // The Redis store reads Redis `TIME`, which did not step: no unit came back.
    expect(await askEach(redis, 2, DAY, agent)).toEqual(each(redis, [429, 429]));
    // Timers still work after the step: each child closes cleanly.
    await stopAll(list);
  }, 120_000);

  it("Headway's client paces against a server whose wall clock steps: every call settles once, admitted once", async () => {
    const clock = new ClockFile();
    files.push(clock);
    // Epoch resets (`X-RateLimit-Reset`) and `Date` on the server's stepped clock, GETs and POSTs
    // (a 429 may be retried for either: the server did not process it), all at once.
    const { child, url, untilLogged } = await serve(clock, false, [
      '--rate',
      '20',
      '--burst',
      '5',
      '--headers',
      'x-ratelimit',
    ]);
    const { fetch, sends } = countingClient();
    const statuses: number[] = [];
    const batch = async (count: number, offsetMs: number) => {
      const answers = await Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const response = await fetch(
            `${url}/items/${i}`,
            i % 2 ? { method: 'POST', body: `call ${i}` } : {},
          );
          await response.arrayBuffer();
          // The server answered on its stepped clock.
          expect(Math.abs(Date.parse(response.headers.get('date')!) - (Date.now() + offsetMs))).toBeLessThan(
            600_000,
          );
          return response.status;
        }),
      );
      statuses.push(...answers);
    };
    await batch(10, 0);
    clock.step(-HOUR);
    await batch(15, -HOUR);
    clock.step(DAY);
    await batch(15, DAY);
    clock.step(0);
    await batch(10, 0);
    expect(statuses).toEqual(Array(50).fill(200));
    const [stats] = fetch.stats();
    expect([...sends.values()].reduce((a, b) => a + b)).toBe(stats!.sent);
    // The server logs its counts once a second: add them up until every attempt is counted.
    // Each call admitted exactly once, every attempt answered, nothing sent the client did not count.
    expect(await untilLogged(stats!.sent)).toEqual({ allowed: 50, refused: stats!.sent - 50 });
    expect(stats!.rateLimited).toBe(stats!.sent - 50);
    await stopAll([child]);
  }, 120_000);

  it('every clock forward one day while calls are in flight: each call settles, none is admitted twice', async () => {
    const clock = new ClockFile();
    files.push(clock);
    // One unit per call id (its own key, no refill to speak of): an admitted call sent again would
    // be refused, and the server counts it. 300 ms per answer keeps calls in flight over the step.
    const { child, url, untilLogged } = await serve(clock, true, [
      '--key-header',
      'x-call',
      '--rate',
      '0.001',
      '--burst',
      '1',
      '--headers',
      'none',
      '--latency-ms',
      '300',
    ]);
    const { fetch, sends } = countingClient();
    const calls = Array.from({ length: 24 }, async (_, i) => {
      const init = { headers: { 'x-call': `call-${i}` } };
      const response = await fetch(
        `${url}/items/${i}`,
        i % 2 ? { ...init, method: 'POST', body: `${i}` } : init,
      );
      await response.arrayBuffer();
      return response.status;
    });
    // Step once the first answers are back: later calls are then in flight or queued. The jump
    // fires every server timer at once (the 300 ms waits, keep-alive timeouts).
    await Promise.race(calls);
    clock.step(DAY);
    const results = await Promise.allSettled(calls);
    // Node's own request timeout (its 30 s check of requests still arriving) sees a day pass: a
    // request caught mid-arrival is answered 408 before the limiter sees it. The client retries a
    // GET after that; a POST it returns as it is, or fails with a documented error: never sent again.
    const statuses = results.map((r, i) => {
      if (r.status === 'fulfilled') return r.value;
      expect(r.reason).toMatchObject({ name: expect.stringMatching(/Error$/) });
      return i % 2 ? 'POST failed' : 'GET failed';
    });
    statuses.forEach((status, i) => {
      expect(i % 2 ? [200, 408, 'POST failed'] : [200]).toContain(status);
    });
    const admitted = statuses.filter((status) => status === 200).length;
    // Sent once each, the POSTs; a GET may have gone again.
    for (let i = 1; i < calls.length; i += 2) expect(sends.get(`${url}/items/${i}`)).toBe(1);
    const [stats] = fetch.stats();
    // Every 200 was admitted once, and no admitted call came back (it would have been refused).
    expect(await untilLogged(admitted)).toEqual({ allowed: admitted, refused: 0 });
    expect(stats!.sent).toBeGreaterThanOrEqual(calls.length);
    await stopAll([child]);
  }, 120_000);
});

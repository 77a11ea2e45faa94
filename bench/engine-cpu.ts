/**
 * The client engine's CPU cost per call, with no network: `Engine#run` over a fake transport that
 * answers at once (a resolved promise) with the headers the reference server sends (IETF
 * `RateLimit` + `RateLimit-Policy`, or `X-RateLimit-*`), 32 calls in flight, against the same loop
 * with no engine (the transport alone). Reports CPU µs per call of each, and their difference: the
 * engine's own cost. Not part of `npm run bench` (no HTTP, no ratio to a peer); run it alone:
 *
 * ```sh
 * node --import tsx bench/engine-cpu.ts [--calls 200000] [--headers ietf|x-ratelimit|none] [--face engine|interceptor|floor] [--remaining counting|steady]
 * node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/engine-cpu.ts --only engine
 * ```
 *
 * Counted in instructions instead, which a shared machine's load does not move: `--stepped` moves
 * the engine's clock 16 µs per answer instead of with real time (so the models see the same
 * answers at the same times on every run), and V8 on one thread makes two identical runs count
 * within about ±2 M instructions of each other (±60 M with its helper threads). The engine's
 * instructions per call are the difference of two run lengths ÷ the calls between them:
 *
 * ```sh
 * count() { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
 *   node --single-threaded --predictable-gc-schedule --import tsx bench/engine-cpu.ts \
 *   --stepped --only engine --rounds 1 --calls "$1" 2>&1 | awk '/I *refs/ { gsub(",", ""); print $NF }'; }
 * echo $(( ($(count 50000) - $(count 10000)) / 40000 ))
 * ```
 */
import { parseArgs } from 'node:util';
import type { Dispatcher } from 'undici';
import type { Transport } from '../src/client/engine.js';
import { Engine } from '../src/client/engine.js';
import type { RequestDescription } from '../src/client/request.js';
import { type Clock, systemClock } from '../src/core/clock.js';
import type { HeaderRecord } from '../src/signals/fields.js';
import { headwayInterceptor } from '../src/undici/interceptor.js';
import { floorInterceptor } from './lib/floor-interceptor.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '200000' },
    headers: { type: 'string', default: 'ietf' },
    only: { type: 'string' },
    face: { type: 'string', default: 'engine' },
    rounds: { type: 'string', default: '3' },
    stepped: { type: 'boolean', default: false },
    remaining: { type: 'string', default: 'counting' },
  },
});
const calls = Number(values.calls);
const rounds = Number(values.rounds);
const CONCURRENCY = 32;
/** The answers' `Date`, and the stepped clock's wall time at its start. */
const DATE = new Date().toUTCString();

/** With `--stepped`: the engine's time, moved 16 µs by each answer. */
let steppedMs = 0;
/**
 * The stepped clock's wall time at its start, parsed once: parsing `DATE` at every `wallNow()`
 * counted about 2,800 instructions per call of `Date.parse` that `systemClock.wallNow()`
 * (`Date.now()`) does not cost.
 */
const DATE_MS = Date.parse(DATE);
const clock: Clock | undefined = values.stepped
  ? { now: () => steppedMs, wallNow: () => DATE_MS + steppedMs, sleep: systemClock.sleep }
  : undefined;
const step = (): void => {
  if (values.stepped) steppedMs += 0.016;
};

/** What a loopback answer carries: undici's `IncomingHttpHeaders` shape, lower-case names. */
const HEADER_SETS: Record<string, HeaderRecord> = {
  ietf: {
    'content-type': 'text/plain',
    'content-length': '2',
    date: DATE,
    connection: 'keep-alive',
    'keep-alive': 'timeout=5',
    'ratelimit-policy': '"default";q=1000000000;w=1',
    ratelimit: '"default";r=999999999;t=1',
  },
  'x-ratelimit': {
    'content-type': 'text/plain',
    'content-length': '2',
    date: DATE,
    connection: 'keep-alive',
    'x-ratelimit-limit': '1000000000',
    'x-ratelimit-remaining': '999999999',
    'x-ratelimit-reset': '1',
  },
  none: { 'content-type': 'text/plain', 'content-length': '2', date: DATE },
};
const headers = HEADER_SETS[values.headers];
if (!headers) throw new Error(`--headers: one of ${Object.keys(HEADER_SETS).join(', ')}`);

interface Answer {
  status: number;
  headers: HeaderRecord;
}

/** `text` as one flat string, as undici's values are (read off a buffer). */
const flat = (text: string): string => Buffer.from(text, 'latin1').toString('latin1');

/**
 * `--remaining steady`: every answer says the same, as the reference server at 10⁹/s does (its
 * bucket is full at each answer: what S4 reads); `counting` (the default): `remaining` counts down
 * from one answer to the next, as from a server being drained. 1,000 answers, cycled.
 */
const steady = values.remaining === 'steady';
if (!steady && values.remaining !== 'counting') throw new Error('--remaining: steady or counting');
const answers: Answer[] = Array.from({ length: 1000 }, (_, i) => ({
  status: 200,
  headers: Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      // Flat, as undici reads them off the socket (`replace` makes a string of parts).
      typeof value === 'string'
        ? flat(value.replace('999999999', String(999_999_999 - (steady ? 0 : i))))
        : value,
    ]),
  ),
}));
let next = 0;
const transport: Transport<Answer> = {
  send: () => {
    step();
    return Promise.resolve(answers[next++ % answers.length] as Answer);
  },
  discard: () => {},
};
const url = new URL('http://127.0.0.1:45000/x');
const request: RequestDescription = { url, method: 'GET', headers: new Headers(), body: undefined };
const spec = { request, origin: url.origin, replayable: true };

/**
 * Runs `n` calls of `one`, `concurrency` in flight; returns this process's CPU µs (user + system)
 * per call, which other processes on a shared machine disturb less than wall time.
 */
async function loop(n: number, one: () => Promise<unknown>, concurrency = CONCURRENCY): Promise<number> {
  let left = n;
  const worker = async () => {
    while (left-- > 0) await one();
  };
  const start = process.cpuUsage();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

/**
 * The interceptor face: a fake next dispatcher that answers in a microtask (head, one chunk, end),
 * under the same handler a caller gives; the raw side dispatches to it directly.
 */
function interceptorLoop(): { viaEngine: () => Promise<unknown>; raw: () => Promise<unknown> } {
  const chunk = Buffer.from('ok');
  const controller = {
    abort() {},
    pause() {},
    resume() {},
    aborted: false,
    paused: false,
    reason: null,
  } as unknown as Dispatcher.DispatchController;
  const fakeDispatch: Dispatcher.Dispatch = (_opts, handler) => {
    step();
    queueMicrotask(() => {
      const { headers: h } = answers[next++ % answers.length] as Answer;
      handler.onRequestStart?.(controller, {});
      handler.onResponseStart?.(controller, 200, h as Record<string, string>, 'OK');
      handler.onResponseData?.(controller, chunk);
      handler.onResponseEnd?.(controller, {});
    });
    return true;
  };
  const opts: Dispatcher.DispatchOptions = { origin: 'http://127.0.0.1:45000', path: '/x', method: 'GET' };
  const one = (dispatch: Dispatcher.Dispatch) =>
    new Promise<void>((resolve, reject) => {
      dispatch(opts, {
        onResponseEnd: () => resolve(),
        onResponseError: (_c, error) => reject(error),
      });
    });
  const paced = (values.face === 'floor' ? floorInterceptor : headwayInterceptor({ clock }))(fakeDispatch);
  return { viaEngine: () => one(paced), raw: () => one(fakeDispatch) };
}

const engine = new Engine({ clock });
const { viaEngine, raw } =
  values.face === 'interceptor' || values.face === 'floor'
    ? interceptorLoop()
    : { viaEngine: () => engine.run(spec, transport), raw: () => transport.send(undefined) };

// Warmed up at 4 in flight first: an unconfigured key lets 4 calls go before its first answer, and
// over a transport that answers within microtasks, calls that once queued behind them keep the
// key's waiting line busy — every later call would join it and measure the waiting path, not the
// path a call that may go at once takes (over real HTTP the line empties between answers).
await loop(5_000, viaEngine, 4);
await loop(20_000, viaEngine);
await loop(20_000, raw);
for (let round = 0; round < rounds; round++) {
  const rawUs = values.only === 'engine' ? 0 : await loop(calls, raw);
  const engineUs = values.only === 'raw' ? 0 : await loop(calls, viaEngine);
  process.stdout.write(
    `round ${round + 1}: engine ${engineUs.toFixed(2)} µs/call, transport alone ${rawUs.toFixed(2)} µs/call, engine's own ${(engineUs - rawUs).toFixed(2)} µs/call (${values.face}, ${values.headers} headers)\n`,
  );
}

/**
 * Headway against a server that changes while it runs, on the manual clock: the reference
 * limiter, replaced (a deploy) at a given time, or with its rate-limit headers stripped by a proxy
 * in front of it from a given time on. `callers` callers call in a loop, each way takes
 * `oneWayMs`; what the server admitted and refused is counted per second. Nothing is random: the
 * same run every time.
 */
import { ManualClock } from '../../src/core/manual-clock.js';
import { createFetch } from '../../src/index.js';
import { type AlgorithmName, type HeaderDialect, rateLimit } from '../../src/server/index.js';

/** One server configuration: the reference limiter's policy, algorithm and dialect. */
export interface ServerShape {
  policy: { limit: number; windowMs: number };
  algorithm: AlgorithmName;
  headers: HeaderDialect;
}

export interface ChangingServer {
  /** The server until `changeAtMs`. */
  before: ServerShape;
  /** The server from `changeAtMs` on (a fresh limiter: a deploy), or the same one when unset. */
  after?: ServerShape;
  changeAtMs: number;
  /** From `changeAtMs` on, a proxy strips every field but `Retry-After` and `Date`. */
  stripFromChange?: boolean;
  callers: number;
  oneWayMs: number;
  seconds: number;
}

/** Admitted and refused requests per second of the run. */
export async function runAgainstChangingServer(c: ChangingServer) {
  const start = 10_000_000;
  const clock = new ManualClock(start, Date.UTC(2026, 0, 1) + start);
  const make = (s: ServerShape) => rateLimit({ ...s, clock });
  const first = make(c.before);
  const second = c.after ? make(c.after) : first;
  const admitted = Array.from({ length: c.seconds + 1 }, () => 0);
  const refused = Array.from({ length: c.seconds + 1 }, () => 0);
  const transport = async (input: RequestInfo | URL) => {
    await clock.sleep(c.oneWayMs);
    const t = clock.now() - start;
    const changed = t >= c.changeAtMs;
    const outcome = await (changed ? second : first).check(
      { method: 'GET', url: String(input), headers: new Headers() },
      { ip: '192.0.2.1' },
    );
    (outcome.allowed ? admitted : refused)[Math.floor(t / 1000)]!++;
    await clock.sleep(c.oneWayMs);
    let headers = [...outcome.headers];
    if (changed && c.stripFromChange)
      headers = headers.filter(([name]) => /^(retry-after|date)$/i.test(name));
    return new Response(null, { status: outcome.status, headers: new Headers(headers) });
  };
  const fetch = createFetch({ fetch: transport, clock, random: () => 0.5 });
  let stop = false;
  const caller = async () => {
    while (!stop) await fetch('http://api.test/items').catch(() => undefined);
  };
  const all = Promise.all(Array.from({ length: c.callers }, caller));
  for (let ms = 0; ms < c.seconds * 1000; ms++) await clock.advance(1);
  stop = true;
  for (let ms = 0; ms < 120_000 && clock.pending > 0; ms++) await clock.advance(1);
  await all;
  return {
    admitted: admitted.slice(0, c.seconds),
    refused: refused.slice(0, c.seconds),
    source: fetch.stats()[0]?.learned.source ?? null,
  };
}

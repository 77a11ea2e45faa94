/**
 * Headway against the reference limiter on the manual clock, where only some answers carry the
 * rate-limit fields: `keepCounters(url, status)` says which do (the others reach the client with
 * `Retry-After` and `Date` only, as from an endpoint or a layer that states none). `callers` callers
 * call in a loop, caller `i`'s `n`-th call going to `urlOf(i, n)`; each way takes `oneWayMs`. What
 * the server admitted and refused is counted per second. Nothing is random: the same run every time.
 */
import { ManualClock } from '../../src/core/manual-clock.js';
import { createFetch } from '../../src/index.js';
import { type AlgorithmName, type HeaderDialect, type Policy, rateLimit } from '../../src/server/index.js';

export interface PartialCounters {
  server: { policy: Policy; algorithm: AlgorithmName; headers: HeaderDialect };
  keepCounters: (url: string, status: number) => boolean;
  urlOf?: (caller: number, n: number) => string;
  callers: number;
  oneWayMs: number;
  seconds: number;
}

/** Admitted and refused requests per second of the run. */
export async function runWithPartialCounters(c: PartialCounters) {
  const start = 10_000_000;
  const clock = new ManualClock(start, Date.UTC(2026, 0, 1) + start);
  const limiter = rateLimit({ ...c.server, clock });
  const admitted = Array.from({ length: c.seconds + 1 }, () => 0);
  const refused = Array.from({ length: c.seconds + 1 }, () => 0);
  const transport = async (input: RequestInfo | URL) => {
    await clock.sleep(c.oneWayMs);
    const url = String(input);
    const outcome = await limiter.check({ method: 'GET', url, headers: new Headers() }, { ip: '192.0.2.1' });
    const second = Math.min(c.seconds, Math.floor((clock.now() - start) / 1000));
    (outcome.allowed ? admitted : refused)[second]!++;
    await clock.sleep(c.oneWayMs);
    let headers = [...outcome.headers];
    if (!c.keepCounters(url, outcome.status))
      headers = headers.filter(([name]) => /^(retry-after|date)$/i.test(name));
    return new Response(null, { status: outcome.status, headers: new Headers(headers) });
  };
  const fetch = createFetch({ fetch: transport, clock, random: () => 0.5 });
  let stop = false;
  const caller = async (i: number) => {
    for (let n = 0; !stop; n++)
      await fetch(c.urlOf ? c.urlOf(i, n) : 'http://api.test/items').catch(() => undefined);
  };
  const all = Promise.all(Array.from({ length: c.callers }, (_, i) => caller(i)));
  for (let ms = 0; ms < c.seconds * 1000; ms++) await clock.advance(1);
  stop = true;
  for (let ms = 0; ms < 120_000 && clock.pending > 0; ms++) await clock.advance(1);
  await all;
  return { admitted: admitted.slice(0, c.seconds), refused: refused.slice(0, c.seconds) };
}

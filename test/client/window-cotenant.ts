/**
 * Headway beside another client on one server window, both on the manual clock: the reference
 * limiter (`limit` per `windowMs`, windows aligned to the clock), another client that spends
 * `foreign` units at the start of each window, and Headway's `callers` calls in flight, each way
 * taking `oneWayMs`. Nothing is random: the same run every time.
 */
import { ManualClock } from '../../src/core/manual-clock.js';
import { createFetch } from '../../src/index.js';
import { type AlgorithmName, type HeaderDialect, rateLimit } from '../../src/server/index.js';

export interface Cotenancy {
  algorithm: AlgorithmName;
  headers: HeaderDialect;
  limit: number;
  windowMs: number;
  /** Units the other client spends at the start of each window. */
  foreign: number;
  callers: number;
  oneWayMs: number;
  /** Windows run. */
  windows: number;
}

/** What each side got (Headway admitted and refused, the other client admitted), per server window. */
export async function runBesideCotenant(c: Cotenancy) {
  const start = 10_000_000;
  const clock = new ManualClock(start, Date.UTC(2026, 0, 1) + start);
  const limiter = rateLimit({
    policy: { limit: c.limit, windowMs: c.windowMs },
    algorithm: c.algorithm,
    headers: c.headers,
    clock,
  });
  const windowOf = () => Math.floor((clock.now() - start) / c.windowMs);
  const admitted = Array.from({ length: c.windows + 2 }, () => 0);
  const refused = Array.from({ length: c.windows + 2 }, () => 0);
  const otherAdmitted = Array.from({ length: c.windows + 2 }, () => 0);
  const ask = (url: string) =>
    limiter.check({ method: 'GET', url, headers: new Headers() }, { ip: '192.0.2.1' });
  let stop = false;
  const transport = async (input: RequestInfo | URL) => {
    await clock.sleep(c.oneWayMs);
    const outcome = await ask(String(input));
    (outcome.allowed ? admitted : refused)[windowOf()]!++;
    await clock.sleep(c.oneWayMs);
    return new Response(null, { status: outcome.status, headers: new Headers([...outcome.headers]) });
  };
  const fetch = createFetch({ fetch: transport, clock, random: () => 0.5 });
  const caller = async () => {
    while (!stop) await fetch('http://api.test/items').catch(() => undefined);
  };
  const other = async () => {
    for (let k = 0; k < c.windows; k++) {
      const at = start + k * c.windowMs;
      if (at > clock.now()) await clock.sleep(at - clock.now());
      for (let i = 0; i < c.foreign; i++)
        if ((await ask('http://api.test/other')).allowed) otherAdmitted[k]!++;
    }
  };
  const all = Promise.all([...Array.from({ length: c.callers }, caller), other()]);
  for (let ms = 0; ms < c.windows * c.windowMs; ms++) await clock.advance(1);
  stop = true;
  for (let ms = 0; ms < 60_000 && clock.pending > 0; ms++) await clock.advance(1);
  await all;
  const span = (a: number[]) => a.slice(0, c.windows);
  return {
    admitted: span(admitted),
    otherAdmitted: span(otherAdmitted),
    refused: span(refused),
    source: fetch.stats()[0]?.learned.source ?? null,
  };
}

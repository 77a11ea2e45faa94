/**
 * An unconfigured client against a server that sends only `Retry-After` (the reference token
 * bucket, dialect `none`), on the manual clock: what the no-counters model does after refusals.
 */
import { describe, expect, it } from 'vitest';
import { Pacer } from '../../src/client/pacer.js';
import { verdictOf } from '../../src/client/verdict.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { createFetch } from '../../src/index.js';
import { rateLimit } from '../../src/server/index.js';
import { readRateLimit } from '../../src/signals/read-rate-limit.js';
import { runUntilSettled } from './fake-server.js';
import { pacerOptions } from './pacer-options.js';

const START = 10_000_000;

/** Sends one unit at `now` and answers it 1 ms later with `status` and `headers` (no counters). */
function roundTrip(pacer: Pacer, now: number, status: number, headers: Record<string, string> = {}) {
  const ticket = pacer.grant(1, pacer.delay(1, now).probe, 0, now);
  const signal = readRateLimit({ status, headers }, { receivedAt: now + 1 });
  pacer.settle(ticket, verdictOf({ kind: 'response', status, signal }), signal, now + 1);
}

/**
 * A token bucket of `burst` refilled at `rate`/s with dialect `none`, behind a proxy that refuses
 * everything while `closed`; each way takes 1 ms.
 */
function server(
  clock: ManualClock,
  rate: number,
  burst: number,
  closed: (at: number) => boolean = () => false,
) {
  const limiter = rateLimit({ policy: { rate, burst }, algorithm: 'token-bucket', headers: 'none', clock });
  const seen: { at: number; status: number }[] = [];
  const transport = async (input: RequestInfo | URL) => {
    await clock.sleep(1);
    let status: number;
    let headers: Headers;
    if (closed(clock.now())) {
      // Closed (a proxy in front of it counts everything): a bare 429 with `Retry-After: 1`.
      status = 429;
      headers = new Headers({ 'retry-after': '1' });
    } else {
      const outcome = await limiter.check(
        { method: 'GET', url: String(input), headers: new Headers() },
        { ip: '1' },
      );
      status = outcome.status;
      headers = new Headers([...outcome.headers]);
    }
    seen.push({ at: clock.now(), status });
    await clock.sleep(1);
    return new Response(null, { status, headers });
  };
  return { limiter, transport, seen };
}

describe('no-counters model after refusals', () => {
  it('a first answer that is a refusal: after the probe the pace ramps up, it does not wait 1 / 0.1 s', async () => {
    const clock = new ManualClock(START);
    // 50/s, burst 5, drained by another client just before ours starts: our first call is refused.
    const s = server(clock, 50, 5);
    for (let i = 0; i < 5; i++)
      await s.limiter.check({ method: 'GET', url: 'http://api.test/x', headers: new Headers() }, { ip: '1' });
    const fetch = createFetch({ fetch: s.transport, clock, random: () => 0.5 });
    // One caller, calls one after another.
    const done = (async () => {
      for (let i = 0; i < 6; i++) await fetch('http://api.test/items');
    })();
    await runUntilSettled(clock, [done], 10, 120_000);
    const times = s.seen.map((x) => x.at - START);
    expect(s.seen[0]!.status).toBe(429);
    const probe = s.seen.findIndex((x, i) => i > 0 && x.status === 200);
    // README: after the gate one probe alone, then a pace near the lowest rate the refusals allow,
    // doubling every 200 ms while no upper bound is known. A ramp that starts at 0.1/s and doubles
    // every 200 ms has a unit to spend about 1 s after it starts; the server allows one every 20 ms.
    const gap = times[probe + 1]! - times[probe]!;
    expect(gap, `sends at ${times.join(', ')} ms`).toBeLessThan(2_000);
  });

  it('probes refused for long enough to push every real episode out: the burst stays bounded', () => {
    // The pacer on explicit times (as pacer.test.ts): 20 admitted 1 ms apart, the 21st refused
    // (`Retry-After: 1`): the server holds at most ~20 at once. Then the server stays closed and
    // six probes in a row are refused (the model's hold grows 2, 4, … 32 s), and the seventh is admitted.
    const pacer = new Pacer(pacerOptions(), () => 0, 0);
    let now = 0;
    for (let i = 0; i < 20; i++, now++) roundTrip(pacer, now, 200);
    roundTrip(pacer, now++, 429, { 'retry-after': '1' });
    const untilFree = () => {
      for (let d = pacer.delay(1, now); d.ms > 0; d = pacer.delay(1, now)) now += d.ms;
    };
    for (let k = 0; k < 6; k++) {
      untilFree();
      roundTrip(pacer, now++, 429, { 'retry-after': '1' });
    }
    untilFree();
    roundTrip(pacer, now++, 200); // the probe is admitted: the key opens
    // README: then the largest burst the refusals allow (here at most the 20 the first episode
    // admitted) and the pace. Count what the pacer lets go at this one instant.
    let together = 0;
    while (together < 1000 && pacer.delay(1, now).ms <= 0) {
      pacer.grant(1, false, 0, now);
      together++;
    }
    expect(pacer.snapshot(now).burst).toBeLessThanOrEqual(20);
    expect(together).toBeLessThanOrEqual(20);
  });
});

/**
 * A server names its windows' units itself (`RateLimit-Policy: …;qu="<unit>"`, drafts 08–11), and a
 * unit is an arbitrary String. README (Token quotas): "Headway paces every window the server
 * reports, each in its own unit: a call costs 1 request and N tokens, and leaves when every window
 * has room for it." A unit spelled like a member of `Object.prototype` (`constructor`, `toString`,
 * `__proto__`) is a unit like any other: its window, once spent, must hold the next call until it
 * resets, exactly as a unit named `widgets` does.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

/** A server with 100 requests and 300 `unit` per minute; each call costs 1 request and 100 `unit`. */
function server(clock: ManualClock, unit: string) {
  let windowStart = 0;
  let used = 0;
  return fakeFetch(clock, (seen) => {
    if (seen.at - windowStart >= 60_000) {
      windowStart = seen.at;
      used = 0;
    }
    const reset = Math.ceil((windowStart + 60_000 - seen.at) / 1000);
    const policy = `"r";q=100;w=60, "u";q=300;w=60;qu="${unit}"`;
    if (used + 100 > 300)
      return {
        status: 429,
        headers: { 'ratelimit-policy': policy, ratelimit: `"r";r=99;t=${reset}, "u";r=0;t=${reset}` },
      };
    used += 100;
    const calls = used / 100;
    return {
      status: 200,
      headers: {
        'ratelimit-policy': policy,
        ratelimit: `"r";r=${100 - calls};t=${reset}, "u";r=${300 - used};t=${reset}`,
      },
    };
  });
}

describe('a window whose unit is named like an Object.prototype member', () => {
  // (A unit named `widgets` passes this test: its fourth call waits 20 s.)
  it.each(['constructor', 'toString', '__proto__'])(
    'qu="%s": a spent window makes the next call wait',
    async (unit) => {
      const clock = new ManualClock();
      const { fetch: transport, seen } = server(clock, unit);
      const fetch = createFetch({ fetch: transport, clock, retries: 0 });
      const waits: number[] = [];
      fetch.onThrottle((e) => waits.push(e.waitMs));
      // Four calls one after another: the window holds three of them.
      for (let i = 0; i < 4; i++) await runUntilSettled(clock, [fetch('http://127.0.0.1:9/x')]);
      expect(seen).toHaveLength(4);
      expect(waits.length).toBeGreaterThan(0);
      expect(seen[3]!.at - seen[2]!.at).toBeGreaterThanOrEqual(1_000);
    },
  );
});

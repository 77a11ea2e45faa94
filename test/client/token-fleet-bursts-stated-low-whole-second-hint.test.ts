/**
 * README (Token quotas, caveats): "A refusal of a call its window had room for by the booking ...
 * says the stated cost is a little low: the key now leaves that refusal's hint later from then on
 * (the hints add up to at most a second, ...)". And (Fleets): "Bookings are spaced, not bunched
 * ... so the server's own bucket stays near full".
 *
 * Two processes share a memory store (`expectedWorkers: 2`) and send bursts: 35 calls of 1,000
 * tokens at once, every two minutes, against OpenAI's shape (a token bucket of 30,000 refilled over
 * a minute; answers in 20 ms), the cost stated 2 % or 5 % low, and the server's hint in whole
 * seconds only (`Retry-After: 1`, no `retry-after-ms`, as OpenAI-compatible servers and proxies
 * send it). Each burst after the first finds the bucket full: 30 calls go at once, the other 5
 * need 10 s of refill.
 *
 * Before `keepLate` (fadd2cd) the first burst was refused 7 times, one of the first two bursts then
 * took 68.3 s, and every burst after that took 10.1 s and was refused nothing (7 refusals in all).
 * Since, every burst after the first is refused 5 times at once and then takes 60.3 s, not 10:
 * 31 refusals, and six bursts 250 s longer. That is not "at most a second": the refusals at each
 * burst's start hold the fleet for the bucket's whole minute.
 *
 * The same bursts with the cost stated exactly take 60.3 s each (5 refusals each) before and after
 * the change: the fleet's bursts are not bounded by the bucket it has learned. That is older than
 * this change and not asserted here; the change moved costs stated a little low onto it.
 *
 * Found on 2026-12-06 (session 29) by the review of fadd2cd.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';
import { runUntilSettled } from './fake-server.js';
import { llmServer, post } from './token-fake-server.js';

const BURSTS = 6;
const CALLS = 35;
const GAP_MS = 120_000;

async function fleetBursts(stated: number) {
  const clock = new ManualClock();
  const server = llmServer(clock, {
    latencyMs: 20,
    requests: { limit: 5000, windowMs: 60_000 },
    tokens: { limit: 30_000, windowMs: 60_000 },
  });
  // The hint in whole seconds only: `Retry-After`, without OpenAI's `retry-after-ms`.
  const wholeSeconds = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await server.fetch(input, init);
    response.headers.delete('retry-after-ms');
    return response;
  };
  const store = memoryStore({ clock });
  const fetches = [0, 1].map(() =>
    createFetch({
      fetch: wholeSeconds,
      clock,
      random: () => 0.5,
      store,
      expectedWorkers: 2,
      cost: () => ({ tokens: stated }),
    }),
  );
  const spans: number[] = [];
  const refusedPerBurst: number[] = [];
  let failed = 0;
  const run = async () => {
    for (let b = 0; b < BURSTS; b++) {
      const start = clock.now();
      const refusedBefore = server.refused();
      await Promise.all(
        Array.from({ length: CALLS }, (_, c) =>
          (fetches[c % 2] as (typeof fetches)[0])(
            'http://127.0.0.1:9/v1/embeddings',
            post({ tokens: 1000 }),
          ).then(
            (response) => {
              if (response.status !== 200) failed++;
            },
            () => failed++,
          ),
        ),
      );
      spans.push(clock.now() - start);
      refusedPerBurst.push(server.refused() - refusedBefore);
      await clock.sleep(GAP_MS);
    }
  };
  await runUntilSettled(clock, [run()], 20, 3_600_000);
  return { spans, refusedPerBurst, failed, refused: server.refused() };
}

describe('a fleet sharing a store, bursts of token calls, the cost stated a little low', () => {
  // Known issue, open (README, Limits: "Known issues found by the review rounds"): marked
  // `it.fails` so the suite reproduces it on every run; when a fix lands this test fails, and
  // `.fails` comes off. Kept with keepLate on 2026-12-06: across the reviews' ~3,300 scenarios it
  // ended failures in dozens of rows (a cost stated 5–10 % low with quick answers, Anthropic's
  // input stated low, long jobs: 105 failed → 0), and this slowdown is the exact cost's own.
  it.fails.each([980, 950])(
    '1,000 tokens stated as %i, hints in whole seconds: from the third burst on, each ends on its refill (about 10 s)',
    async (stated) => {
      const job = await fleetBursts(stated);
      expect(job.failed).toBe(0);
      // Observed: bursts 2–6 took 60.3 s each, refused 5 times each (31 refusals in all); before
      // fadd2cd bursts 3–6 took 10.1 s and were refused nothing (7 refusals in all).
      for (const span of job.spans.slice(2)) expect(span).toBeLessThanOrEqual(15_000);
      expect(job.refusedPerBurst.slice(2)).toEqual([0, 0, 0, 0]);
      expect(job.refused).toBeLessThanOrEqual(10);
    },
  );
});

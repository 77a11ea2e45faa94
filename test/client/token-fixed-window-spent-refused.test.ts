/**
 * README: "`remaining: 0` holds the key until the next unit is expected back"; "**paces** calls so
 * the server never has to refuse them"; bucket.ts: "a window may return nothing before it; the
 * `reset` floor is an average, not a promise".
 *
 * Servers that count tokens behind OpenAI-compatible headers and give them back in steps, not
 * continuously: in fixed minutes (`x-ratelimit-reset-tokens: 52.5s` is the window's end), or in a
 * sliding log (each call's tokens back a minute after they were counted; the reset is the time
 * until every counted token is back). A token window read at `remaining: 0` on a 200 holds the key
 * until that reset, and a job that fills each minute is never refused. 0ed4784 (2026-12-06) paced a
 * token window once seen with room at the reset's average instead (`limit / reset`), as if it
 * refilled continuously: calls went before the tokens they needed were back, and the server refused
 * them. It was taken back the same day (a58c5ac).
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { runUntilSettled } from './fake-server.js';
import { fixedTokenWindowServer } from './fixed-token-window-server.js';
import { post } from './token-fake-server.js';

/** 8 callers, 13 calls each (104) of 1,000 tokens: 500 requests and 30,000 tokens a minute. */
async function job(statedTokens: number | null, algorithm?: 'sliding-log') {
  const clock = new ManualClock();
  const server = fixedTokenWindowServer(clock, {
    shape: 'openai',
    windows: [
      { name: 'requests', unit: 'requests', limit: 500, windowMs: 60_000 },
      { name: 'tokens', unit: 'tokens', limit: 30_000, windowMs: 60_000, algorithm },
    ],
  });
  const fetch = createFetch({
    fetch: server.fetch,
    clock,
    random: () => 0.5,
    ...(statedTokens === null ? {} : { cost: () => ({ tokens: statedTokens }) }),
  });
  const statuses: number[] = [];
  const caller = async () => {
    for (let i = 0; i < 13; i++) {
      await fetch('http://127.0.0.1:9/v1/chat/completions', post({ tokens: 1000 })).then(
        (response) => statuses.push(response.status),
        () => statuses.push(-1),
      );
    }
  };
  await runUntilSettled(clock, Array.from({ length: 8 }, caller), 20, 3_600_000);
  return { ok: statuses.filter((s) => s === 200).length, refused: server.refused() };
}

describe('a token window that gives tokens back in steps, spent on a 200', () => {
  it.each([
    { server: 'fixed minutes', cost: 'stated exactly', stated: 1000, algorithm: undefined, observed: 1 },
    { server: 'fixed minutes', cost: 'stated 10 % low', stated: 900, algorithm: undefined, observed: 3 },
    { server: 'a sliding log', cost: 'stated exactly', stated: 1000, algorithm: 'sliding-log', observed: 1 },
    { server: 'a sliding log', cost: 'stated 10 % low', stated: 900, algorithm: 'sliding-log', observed: 5 },
    { server: 'a sliding log', cost: 'learned', stated: null, algorithm: 'sliding-log', observed: 1 },
  ] as const)('$server, the cost $cost: no call is refused', async ({ stated, algorithm, observed }) => {
    const run = await job(stated, algorithm);
    expect(run.ok).toBe(104);
    // Observed with 0ed4784: `observed` refusals. On 9e6438c: 0 each.
    expect(run.refused, `0ed4784 refused ${observed}`).toBe(0);
  });
});

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
import { tokenMinuteJob } from './fixed-token-window-server.js';
import { post } from './token-fake-server.js';

/** 104 calls of 1,000 tokens, stated as `statedTokens` (`null`: learned). */
const job = (statedTokens: number | null, algorithm?: 'sliding-log') =>
  tokenMinuteJob({
    algorithm,
    cost: statedTokens === null ? undefined : () => ({ tokens: statedTokens }),
    call: () => post({ tokens: 1000 }),
  });

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

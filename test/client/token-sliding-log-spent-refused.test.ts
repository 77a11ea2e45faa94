/**
 * README: "**paces** calls so the server never has to refuse them"; "`remaining: 0` holds the key
 * until the next unit is expected back"; bucket.ts: "a window may return nothing before it; the
 * `reset` floor is an average, not a promise".
 *
 * A server that counts tokens in a sliding log (each call's tokens back one minute after they were
 * counted) behind OpenAI-compatible headers, its reset the time until every counted token is back
 * ("back to full by then", OpenAI's meaning). Its tokens come back in steps, one call's at a time,
 * not continuously. Before 0ed4784 (2026-12-06), and again since a58c5ac the same day, a token window read at `remaining: 0` on a 200 held
 * the key until that reset, and the job below was never refused. With 0ed4784 (taken back: the cost stated low it was meant for is scaled up instead), a token window once seen
 * with room is paced at the reset's average (`limit / reset`) as if it refilled continuously:
 * calls go before the tokens they need are back, and the server refuses them.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { runUntilSettled } from './fake-server.js';
import { fixedTokenWindowServer } from './fixed-token-window-server.js';
import { post } from './token-fake-server.js';

/** 8 callers, 13 calls each (104) of 1,000 tokens: 30,000 tokens a sliding minute. */
async function job(statedTokens: number | null) {
  const clock = new ManualClock();
  const server = fixedTokenWindowServer(clock, {
    shape: 'openai',
    windows: [
      { name: 'requests', unit: 'requests', limit: 500, windowMs: 60_000 },
      { name: 'tokens', unit: 'tokens', limit: 30_000, windowMs: 60_000, algorithm: 'sliding-log' },
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

describe('a token window of a sliding-log server, spent on a 200 (reset: until every token is back)', () => {
  it.each([
    { cost: 'stated exactly', stated: 1000, observed: 1 },
    { cost: 'stated 10 % low', stated: 900, observed: 5 },
    { cost: 'learned', stated: null, observed: 1 },
  ])('the cost $cost: no call is refused', async ({ stated, observed }) => {
    const run = await job(stated);
    expect(run.ok).toBe(104);
    // Observed (0ed4784): 1 refusal with the cost stated exactly, 5 stated 10 % low (900), 1
    // learned (null). On 9e6438c: 0 each.
    expect(run.refused, `0ed4784 refused ${observed}`).toBe(0);
  });
});

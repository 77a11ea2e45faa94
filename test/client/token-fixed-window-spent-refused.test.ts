/**
 * README: "`remaining: 0` holds the key until the next unit is expected back"; "**paces** calls so
 * the server never has to refuse them"; bucket.ts: "a window may return nothing before it; the
 * `reset` floor is an average, not a promise".
 *
 * A server that counts tokens in fixed minutes behind OpenAI-compatible headers
 * (`x-ratelimit-remaining-tokens: 0`, `x-ratelimit-reset-tokens: 52.5s`: the reset is the
 * window's end). Before 0ed4784 (2026-12-06), and again since a58c5ac the same day, a token window read at `remaining: 0` on a 200 held
 * the key until that reset, and a job that filled each minute was never refused. With 0ed4784 (taken back: the cost stated low it was meant for is scaled up instead), a token
 * window once seen with room is paced at the reset's average instead (`limit / reset`), as if it
 * refilled continuously: a call goes into the spent minute and the server refuses it.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { runUntilSettled } from './fake-server.js';
import { fixedTokenWindowServer } from './fixed-token-window-server.js';
import { post } from './token-fake-server.js';

/** 8 callers, 13 calls each (104) of 1,000 tokens: 500 requests and 30,000 tokens a fixed minute. */
async function job(statedTokens: number) {
  const clock = new ManualClock();
  const server = fixedTokenWindowServer(clock, {
    shape: 'openai',
    windows: [
      { name: 'requests', unit: 'requests', limit: 500, windowMs: 60_000 },
      { name: 'tokens', unit: 'tokens', limit: 30_000, windowMs: 60_000 },
    ],
  });
  const fetch = createFetch({
    fetch: server.fetch,
    clock,
    random: () => 0.5,
    cost: () => ({ tokens: statedTokens }),
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

describe('a token window of a fixed-window server, spent on a 200 (OpenAI-compatible headers)', () => {
  it('the cost stated exactly: no call is refused', async () => {
    const run = await job(1000);
    expect(run.ok).toBe(104);
    // Observed (0ed4784): 1 refusal. On 9e6438c: 0.
    expect(run.refused).toBe(0);
  });

  it('the cost stated 10 % low: no call is refused', async () => {
    const run = await job(900);
    expect(run.ok).toBe(104);
    // Observed (0ed4784): 3 refusals. On 9e6438c: 0.
    expect(run.refused).toBe(0);
  });
});

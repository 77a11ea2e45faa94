/**
 * TSDoc of `cost`: "What a request costs before it is sent: requests (a number, the unit of
 * `rate`), or units by the names of the server's windows".
 *
 * Every call states its tokens EXACTLY (1,000, what the server counts); some also weigh more in
 * requests (`{ requests: 3, tokens: 1000 }`, a batch endpoint the caller's `rate` counts as three).
 * a58c5ac (2026-12-06, taken back the same day) scaled a stated cost, compared per request unit:
 * a call of 3 requests and 1,000 tokens read as 333 tokens stated, so the median stated fell under
 * what the server counts per call and every call, exact as stated, was booked high. Against a
 * fixed token minute the job was done minutes later (without it: in the 4th minute, none refused).
 */
import { describe, expect, it } from 'vitest';
import { tokenMinuteJob } from './fixed-token-window-server.js';
import { post } from './token-fake-server.js';

/** 104 calls of 1,000 tokens stated exactly, every other one weighing `requests` requests (a fixed token minute). */
const job = (requests: number) =>
  tokenMinuteJob({
    cost: (request) => ({
      requests: Number(request.headers.get('x-weight') ?? '1'),
      tokens: (JSON.parse(request.body ?? '{}') as { tokens: number }).tokens,
    }),
    call: (c, i) => {
      const init = post({ tokens: 1000 });
      init.headers = {
        ...(init.headers as Record<string, string>),
        'x-weight': String((c + i) % 2 ? requests : 1),
      };
      return init;
    },
  });

describe('calls of 1,000 tokens stated exactly, some weighing more requests, against a fixed token minute', () => {
  it('every other call { requests: 3, tokens: 1000 }: done in the 4th minute, none refused', async () => {
    const run = await job(3);
    expect(run.ok).toBe(104);
    // Observed: last call counted at 301.0 s (the 6th minute), 1 refusal; scaling reverted: 181.0 s, 0 refused.
    expect(run.doneMs).toBeLessThan(240_000);
    expect(run.refused).toBe(0);
  });

  it('every other call { requests: 2, tokens: 1000 }: done in the 4th minute, none refused', async () => {
    const run = await job(2);
    expect(run.ok).toBe(104);
    // Observed: last call counted at 241.0 s (the 5th minute), 1 refusal; scaling reverted: 181.0 s, 0 refused.
    expect(run.doneMs).toBeLessThan(240_000);
    expect(run.refused).toBe(0);
  });
});

/**
 * `init.queuePriority` (README: "per call (`init.queuePriority`): higher leaves the key's queue
 * first") is handed to p-queue unchecked (src/client/create-fetch.ts → engine-call.ts →
 * waiting-line.ts `join`). A value that is not a number (NaN, a string from JavaScript) is accepted
 * when the call goes at once, and when it has to wait the call rejects with p-queue's own
 * `TypeError` naming `priority` — fetch's own `RequestInit.priority` ('high' | 'low' | 'auto'),
 * not the option the caller set. Bad input is to get a clear typed error (`InvalidOptionError`,
 * naming `queuePriority`), whatever the state of the line.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { InvalidOptionError } from '../../src/errors.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('init.queuePriority that is not a number', () => {
  it('rejects with InvalidOptionError naming queuePriority, whether or not the call waits', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }), 100);
    const fetch = createFetch({ fetch: server.fetch, clock, maxConcurrent: 1 });
    const calls = [
      fetch(URL_A, { queuePriority: Number.NaN }), // goes at once
      fetch(URL_A, { queuePriority: Number.NaN }), // has to wait
      fetch(URL_A, { queuePriority: 'high' as unknown as number }),
    ];
    const results = await runUntilSettled(clock, calls, 10);
    const reasons = results.map((r) => (r.status === 'rejected' ? r.reason : 'sent'));
    for (const reason of reasons) {
      expect(reason).toBeInstanceOf(InvalidOptionError);
      expect((reason as InvalidOptionError).option).toBe('queuePriority');
    }
  });
});

/**
 * Event listeners may be `async` (a metrics sink, a logger that awaits): one whose promise rejects
 * must be ignored as a throwing one is — not surface as an unhandled rejection, which ends a Node
 * process by default. The call's outcome is unchanged.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});

describe('an async event listener that rejects', () => {
  it('is ignored: no unhandled rejection, the call answered as without it', async () => {
    const clock = new ManualClock();
    let n = 0;
    const server = fakeFetch(clock, () =>
      n++ === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    fetch.onRateLimited(async () => {
      throw new Error('listener failed');
    });
    fetch.onRetry(() => Promise.reject(new Error('listener failed too')));
    const [result] = await runUntilSettled(clock, [fetch('http://127.0.0.1:9/a')], 5);
    expect(result).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    // Unhandled rejections are reported once the microtask queue drains.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
  });
});

/**
 * Fetch refuses a URL on a "bad port" (the Fetch standard's port blocking: 1, 6000 (X11), …) before
 * it opens any connection: Node's fetch rejects with `TypeError('fetch failed', { cause: 'bad port' })`,
 * every time, without sending anything. It is a refusal like a GET with a body (see
 * test/contract/invalid-request.test.ts and `Transport.refused`: "the transport refused its
 * arguments … The call then ends with that error, unretried, and the key learns nothing from it
 * (no outage)"). Headway reads it as a network error instead: retried with backoff (`batch`: five
 * times), counted in `stats().sent` ("Attempts sent") and `error.facts.attempts`, and an outage
 * that closes the key's gate on every other call of the origin.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { runUntilSettled } from './fake-server.js';

// No server: fetch refuses this port before connecting to anything.
const BAD_PORT_URL = 'http://127.0.0.1:6000/x';

describe('a URL on a port fetch refuses (bad port)', () => {
  it('rejects with fetch’s TypeError at once: not retried, not counted as sent, no outage', async () => {
    const clock = new ManualClock();
    const fetch = createFetch({ clock, random: () => 0.5, profile: 'batch' });
    const retries: string[] = [];
    fetch.onRetry((e) => retries.push(e.reason));

    const [result] = await runUntilSettled(clock, [fetch(BAD_PORT_URL)], 10);
    expect(result).toMatchObject({ status: 'rejected' });
    expect((result as PromiseRejectedResult).reason).toBeInstanceOf(TypeError);
    expect(retries).toEqual([]);
    const stats = fetch.stats()[0]!;
    expect(stats.sent).toBe(0);
    expect(stats.gate.open).toBe(true);
  });
});

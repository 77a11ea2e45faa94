/**
 * A stream body of a call that ends before it is sent, over real HTTP on 127.0.0.1. Plain `fetch`
 * cancels the request's body stream when its call is aborted (Fetch Standard, "abort the fetch()
 * call": "If request's body is non-null and is readable, then cancel request's body"), and
 * `undici.request` destroys its stream body on any error. `createFetch` is a drop-in `fetch`: a call
 * aborted in its pacing wait, or refused before it is sent, must release the stream it was handed
 * (its source — a file, a socket — is closed by `cancel`), not leave it open and unread.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { AbortError, DeadlineExceededError } from '../../src/errors.js';
import { runUntilSettled } from '../client/fake-server.js';
import { listen } from '../server/loopback.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server = await listen(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    bodies.push(body);
    res.writeHead(200).end('ok');
  });
  cleanups.push(server.close);
  return { url: server.url, bodies };
}

/** A stream body that records whether it was cancelled. */
function streamBody(): { body: ReadableStream<Uint8Array>; cancelled: () => unknown } {
  let reason: unknown = 'not cancelled';
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"n":1}'));
    },
    cancel(why) {
      reason = why;
    },
  });
  return { body, cancelled: () => reason };
}

describe('createFetch: the stream body of a call that is never sent', () => {
  it('is cancelled when the caller aborts the pacing wait, as fetch cancels it', async () => {
    const { url, bodies } = await serve();
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const fetch = createFetch({ clock, rate: 1, burst: 1 });
    await runUntilSettled(clock, [fetch(`${url}/first`).then((r) => r.text())], 10);
    const { body, cancelled } = streamBody();
    const controller = new AbortController();
    const call = fetch(`${url}/upload`, {
      method: 'POST',
      body,
      duplex: 'half',
      signal: controller.signal,
    } as RequestInit);
    const settled = call.then(
      () => null,
      (e: unknown) => e,
    );
    await clock.advance(10); // waits for the key's next token (1 s away)
    controller.abort(new Error('caller gave up'));
    const error = await settled;
    expect(error).toBeInstanceOf(AbortError);
    expect(bodies).toEqual(['']); // only the first call reached the server
    expect(cancelled()).not.toBe('not cancelled');
  });

  it('is cancelled when the call fails at once with DeadlineExceededError', async () => {
    const { url } = await serve();
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const fetch = createFetch({ clock, rate: 1, burst: 1 });
    await runUntilSettled(clock, [fetch(`${url}/first`).then((r) => r.text())], 10);
    const { body, cancelled } = streamBody();
    // The next token is 1 s away, beyond the call's 100 ms deadline: it fails without being sent.
    const error = await fetch(`${url}/upload`, {
      method: 'POST',
      body,
      duplex: 'half',
      deadlineMs: 100,
    } as RequestInit).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(cancelled()).not.toBe('not cancelled');
  });
});

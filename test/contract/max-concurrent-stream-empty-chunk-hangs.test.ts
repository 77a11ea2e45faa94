/**
 * README, Client options: "`maxConcurrent` | number | `Infinity` | calls of a key in flight at
 * once, your bound; an answer streamed as Server-Sent Events (`text/event-stream`) counts until its
 * body ends"; and, of `maxConcurrent`: "With `createFetch` the streamed answer is a new `Response`
 * over the transport's: the same status, headers, `url`, `redirected` and `type`, its body a byte
 * stream read one chunk ahead of you". TSDoc of `untilBodyEnd`: "its body is a byte stream that
 * reads the original's chunks one ahead of the caller".
 *
 * A byte stream cannot be given a zero-length chunk, so `untilBodyEnd`'s `pull` skips one and
 * returns having enqueued nothing. A `pull` that enqueues nothing is not called again by the
 * stream unless a read arrived while it ran: a caller already waiting on `read()` (every SSE loop,
 * `text()`, the openai SDK) when the transport yields an empty chunk waits for ever — the rest of
 * the body, its end and the key's place with it. A `fetch` option whose body yields an empty
 * chunk is a stream any `fetch` consumer reads to its end: a wrapper that re-encodes events
 * (`encoder.encode('')` for a filtered event or an empty token delta), a mock built from
 * `ReadableStream.from(...)`, a worker-style handler used as `fetch` in tests. The same body
 * through `createFetch` without `maxConcurrent`, or before add7e91 (a plain stream, no read-ahead),
 * is read whole.
 *
 * Found on 2026-12-06 (session 26, a review of add7e91, which made the streamed answer's body a
 * byte stream read one chunk ahead).
 *
 * Fixed the same day: the caller's body skips empty chunks and reads on.
 */
import { setTimeout as sleep, setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/index.js';

const encode = (text: string) => new TextEncoder().encode(text);

/** A `fetch` whose event stream the test feeds chunk by chunk (`push`), then ends (`end`). */
function fedStream() {
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  const fetch = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(c) {
          controller = c;
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    );
  return {
    fetch,
    push: (chunk: Uint8Array) => controller?.enqueue(chunk),
    end: () => controller?.close(),
  };
}

/** Lets the stream machinery settle (all of it is promise work, in this process). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await turn();
}

/** The body's text, or 'still waiting' (a hang, not a duration: it is all in this process). */
const textOrHang = (text: Promise<string>) => Promise.race([text, sleep(2000).then(() => 'still waiting')]);

async function readWithEmptyChunk(fetch: ReturnType<typeof createFetch>, feed: ReturnType<typeof fedStream>) {
  const response = await fetch('http://127.0.0.1:9/v1/chat/completions');
  const text = response.text(); // the caller reads on, as an SSE loop does
  await settle();
  feed.push(encode('data: {"delta":"hel"}\n\n'));
  await settle();
  feed.push(new Uint8Array(0));
  await settle();
  feed.push(encode('data: {"delta":"lo"}\n\ndata: [DONE]\n\n'));
  feed.end();
  return textOrHang(text);
}

describe('maxConcurrent: a streamed answer whose body yields an empty chunk', () => {
  it('createFetch with maxConcurrent: a caller reading on gets the whole body', async () => {
    const feed = fedStream();
    const fetch = createFetch({ maxConcurrent: 1, fetch: feed.fetch });
    const text = await readWithEmptyChunk(fetch, feed);

    expect(text).toBe('data: {"delta":"hel"}\n\ndata: {"delta":"lo"}\n\ndata: [DONE]\n\n');
  });

  it('createFetch without maxConcurrent (the transport’s own body): read whole', async () => {
    const feed = fedStream();
    const fetch = createFetch({ fetch: feed.fetch });
    expect(await readWithEmptyChunk(fetch, feed)).toBe(
      'data: {"delta":"hel"}\n\ndata: {"delta":"lo"}\n\ndata: [DONE]\n\n',
    );
  });
});

/**
 * README, of `maxConcurrent`: "With `createFetch` the streamed answer is a new `Response` over the
 * transport's: ... its body a byte stream that reads nothing before you do, then one chunk ahead of
 * you (so the transport sees the end after your last event)"; and "it counts until its body ends,
 * fails or is cancelled ..., read to its end or not". TSDoc of `untilBodyEnd`: "`close` called once
 * its body has ended ... (whether or not the caller has read all of it)".
 *
 * faf5193 made the caller's body skip empty chunks, and read one chunk ahead once the caller has
 * read. The skip is done only when the caller asks (`pull`): the read ahead itself stops at an empty
 * chunk. A transport that learns of its end only when asked for more (undici's body, a stream made
 * with `ReadableStream.from` over an async generator) and yields an empty chunk between the last
 * event and its end — a `fetch` wrapper that re-encodes events and filters a trailing comment
 * (`: bye`) or keep-alive into `encoder.encode('')`, as the empty-chunk test's wrapper does —
 * is never asked for its end once the caller stops at `data: [DONE]`: the key's place is held until
 * the caller drops the answer and the collector finds it (with `maxConcurrent: 1` the next call
 * waits). The same body with nothing between its last event and its end is freed, which the first
 * test pins. (A non-empty chunk there, the comment kept, is held the same way: one chunk ahead
 * cannot reach an end two chunks away; the README's "so the transport sees the end after your last
 * event" holds only when nothing follows the last event.)
 *
 * Found on 2026-12-06 (session 26, a review of faf5193). Observed: the transport's end never asked
 * for, the key's next call unanswered (`{ transportEnded: false, nextAnswered: false }`).
 * Fixed the same day: the read ahead skips empty chunks too (`readBytes`).
 */
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/index.js';

const encode = (text: string) => new TextEncoder().encode(text);

/** Lets the stream machinery settle (all of it is promise work, in this process). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await turn();
}

/**
 * A `fetch` whose event stream is a wrapper over the server's events (a stream pulled from an async
 * generator as it is read, as `ReadableStream.from` makes): it re-encodes each event, a comment filtered to nothing.
 * The server ends after `data: [DONE]`, or (`comment`) sends `: bye` first. `state.ended`: the
 * generator was asked past its last chunk.
 */
function wrappedStream(comment: boolean) {
  const state = { ended: false };
  const serverChunks = ['data: {"delta":"hi"}\n\n', 'data: [DONE]\n\n', ...(comment ? [': bye\n\n'] : [])];
  async function* events() {
    for (const chunk of serverChunks) {
      await turn(); // the server's chunks come apart
      yield encode(chunk.startsWith(':') ? '' : chunk);
    }
    state.ended = true;
  }
  const fetch = async () => {
    const source = events();
    // What `ReadableStream.from(source)` makes (not in this project's DOM types): read as it is asked.
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const next = await source.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
  return { fetch, state };
}

describe('maxConcurrent: a stream whose transport yields an empty chunk between its last event and its end', () => {
  for (const [name, comment] of [
    ['the end right after the last event', false],
    ['an empty chunk before the end', true],
  ] as const) {
    it(`createFetch, ${name}: a caller that stops at data: [DONE] frees the place`, async () => {
      const { fetch: transport, state } = wrappedStream(comment);
      const fetch = createFetch({ maxConcurrent: 1, fetch: transport });
      const response = await fetch('http://127.0.0.1:9/v1/chat/completions');
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = '';
      for (let i = 0; i < 10 && !text.includes('data: [DONE]'); i++) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      expect(text).toContain('data: [DONE]');
      await settle();
      let next = false;
      void fetch('http://127.0.0.1:9/v1/models').then(() => (next = true));
      await settle();

      expect({ transportEnded: state.ended, nextAnswered: next }).toEqual({
        transportEnded: true,
        nextAnswered: true,
      });
      await reader.cancel(); // frees the place either way
    });
  }
});

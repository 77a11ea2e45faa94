/**
 * An answer whose body streams on after its head: an event stream (Server-Sent Events, as LLM APIs
 * stream a completion) is a call the server is still working on until its body ends. While a key
 * bounds its calls in flight (`maxConcurrent`), such an answer keeps its place until then: the
 * engine decides which answers ({@link isEventStream}), a face says when the body ended (the
 * interceptor from undici's callbacks, `createFetch` through {@link untilBodyEnd}).
 *
 * Only event streams: an answer of any other type frees its place at its head, as before, since a
 * caller may read it for its status alone and never read nor cancel its body (which would then
 * hold the place until the garbage collector found it).
 */
import type { HeaderSource } from '../signals/fields.js';

const EVENT_STREAM = /^\s*text\/event-stream\s*(?:;|$)/i;

/** True when `headers` say the body is an event stream (`Content-Type: text/event-stream`). */
export function isEventStream(headers: HeaderSource): boolean {
  let type: unknown;
  try {
    type =
      typeof (headers as Headers).get === 'function'
        ? (headers as Headers).get('content-type')
        : (headers as Record<string, unknown>)['content-type'];
  } catch {
    return false; // an exotic source (a throwing getter): not known to stream
  }
  return typeof type === 'string' && EVENT_STREAM.test(type);
}

/** Frees the place of a streamed answer the caller dropped unread, and cancels its body (see {@link untilBodyEnd}). */
const collected = new FinalizationRegistry<() => void>((release) => release());

/**
 * `response` as the caller gets it, with `close` called once its body has ended, failed or been
 * cancelled (whether or not the caller has read all of it), or once its body is collected unread
 * (the transport's body is then cancelled, so the server's stream ends too). The same status,
 * status text, headers, `url`, `redirected` and `type`; its body is a byte stream that reads the
 * original's chunks one ahead of the caller (a body nobody reads holds one chunk at most). A
 * response with no body, or one `new Response` cannot copy (a status line `fetch` accepts and it
 * refuses: a status past 599, a reason phrase beyond Latin-1), is returned as it is, closed at once.
 */
export function untilBodyEnd(response: Response, close: () => void): Response {
  const source = response.body;
  if (source === null || source.locked) {
    close();
    return response;
  }
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  const token = {};
  let open = true;
  const done = () => {
    if (!open) return;
    open = false;
    collected.unregister(token);
    close();
  };
  const body = new ReadableStream(
    {
      type: 'bytes',
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await (reader as ReadableStreamDefaultReader<Uint8Array>).read();
        } catch (error) {
          controller.error(error);
          return;
        }
        if (chunk.done) {
          controller.close();
          // A reader waiting with its own buffer (`mode: 'byob'`) is answered with none.
          controller.byobRequest?.respond(0);
        } else if (chunk.value.byteLength > 0) {
          // A copy: enqueuing a byte stream's chunk takes its buffer, which may hold other bytes.
          controller.enqueue(new Uint8Array(chunk.value));
        }
      },
      cancel(reason) {
        return (reader as ReadableStreamDefaultReader<Uint8Array>).cancel(reason);
      },
    },
    // One chunk read ahead of the caller: a transport learns of its body's end only when asked for
    // more, and a caller that stops at the last event (`data: [DONE]`) asks for nothing more.
    { highWaterMark: 1 },
  );
  let streamed: Response;
  try {
    streamed = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  } catch {
    close();
    return response;
  }
  const held = source.getReader();
  reader = held;
  // The transport's body is over (its end, buffered or read; a failure; a cancel): the call is.
  held.closed.then(done, done);
  collected.register(
    body,
    () => {
      done();
      held.cancel().catch(() => {});
    },
    token,
  );
  // What `new Response` cannot be given: where the answer came from.
  return Object.defineProperties(streamed, {
    url: { value: response.url },
    redirected: { value: response.redirected },
    type: { value: response.type },
  });
}

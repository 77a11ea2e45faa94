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

const ignore = (): void => {};

/**
 * The next chunk of `reader` that holds bytes, or its end: an empty chunk carries nothing to a
 * caller, who waits for bytes or the end (and a read ahead must reach the end past one).
 */
async function readBytes(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done || chunk.value.byteLength > 0) return chunk;
  }
}

/** Frees the place of a streamed answer the caller dropped unread, and cancels its body (see {@link untilBodyEnd}). */
const collected = new FinalizationRegistry<() => void>((release) => release());

/**
 * `response` as the caller gets it, with `close` called once its body has ended, failed or been
 * cancelled (whether or not the caller has read all of it), or once its body is collected unread
 * (the transport's body is then cancelled, so the server's stream ends too). The same status,
 * status text, headers, `url`, `redirected` and `type`; its body is a byte stream that reads the
 * original's chunks as the caller asks, and one ahead once it has asked (none for a body nobody
 * reads). A
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
  /** The read made ahead of the caller (see below), not awaited yet. */
  let ahead: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  const body = new ReadableStream(
    {
      type: 'bytes',
      async pull(controller) {
        const held = reader as ReadableStreamDefaultReader<Uint8Array>;
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await (ahead ?? readBytes(held));
          ahead = null;
        } catch (error) {
          controller.error(error);
          return;
        }
        if (chunk.done) {
          controller.close();
          // A reader waiting with its own buffer (`mode: 'byob'`) is answered with none.
          controller.byobRequest?.respond(0);
          return;
        }
        // A copy: enqueuing a byte stream's chunk takes its buffer, which may hold other bytes.
        controller.enqueue(new Uint8Array(chunk.value));
        // One read ahead of the caller, once it reads: a transport learns of its body's end only
        // when asked for more, and a caller that stops at the last event (`data: [DONE]`) asks for
        // nothing more. Only the read's promise is kept (no reaction of this stream's), so a
        // pending read pins nothing: a body dropped while its server is silent is still collected.
        ahead = readBytes(held);
        ahead.catch(ignore);
      },
      cancel(reason) {
        return (reader as ReadableStreamDefaultReader<Uint8Array>).cancel(reason);
      },
    },
    // Nothing read before the caller asks: a body nobody reads pins nothing either.
    { highWaterMark: 0 },
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

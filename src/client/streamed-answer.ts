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

/** Frees the place of a streamed answer the caller dropped unread (see {@link untilBodyEnd}). */
const collected = new FinalizationRegistry<() => void>((close) => close());

/**
 * `response` as the caller gets it, with `close` called once its body ends, fails or is cancelled,
 * or when its body is collected unread. The same status, status text, headers, `url`,
 * `redirected` and `type`; its body reads the original's chunks as they are asked for (none ahead:
 * a body nobody reads pins nothing). A response with no body is returned as it is, closed at once.
 */
export function untilBodyEnd(response: Response, close: () => void): Response {
  const source = response.body;
  if (source === null || source.locked) {
    close();
    return response;
  }
  const reader = source.getReader();
  const token = {};
  let open = true;
  const done = () => {
    if (!open) return;
    open = false;
    collected.unregister(token);
    close();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          done();
          controller.error(error);
          return;
        }
        if (!chunk.done) {
          controller.enqueue(chunk.value);
          return;
        }
        done();
        controller.close();
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  collected.register(body, done, token);
  const streamed = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // What `new Response` cannot be given: where the answer came from.
  return Object.defineProperties(streamed, {
    url: { value: response.url },
    redirected: { value: response.redirected },
    type: { value: response.type },
  });
}

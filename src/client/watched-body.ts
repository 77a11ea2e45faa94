/**
 * A caller's stream body, watched: whether the stream itself failed (a file read error, a producer
 * that gave up) tells a failed upload that is the caller's doing from a network failure, which
 * `fetch` reports alike (`TypeError('fetch failed', { cause })`).
 */

/** A stream body as sent, and what its source failed with, if it did. */
export interface WatchedBody {
  /** The stream to send in place of the caller's: the same chunks, read from it as they are asked for. */
  body: ReadableStream<Uint8Array>;
  /** True when `error` (or its `cause`) is what the caller's stream failed with. */
  failedWith(error: unknown): boolean;
}

/** Watches `source`, a body stream no one has read yet. */
export function watchBody(source: ReadableStream<Uint8Array>): WatchedBody {
  const reader = source.getReader();
  let failure: { error: unknown } | null = null;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        failure = { error };
        controller.error(error);
        return;
      }
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const failedWith = (error: unknown): boolean =>
    failure !== null &&
    (error === failure.error || (error as { cause?: unknown } | null)?.cause === failure.error);
  return { body, failedWith };
}

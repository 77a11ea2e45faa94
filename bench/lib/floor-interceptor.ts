/**
 * The floor of an undici interceptor that paces: what it must do at the least — compute the key,
 * look it up in a map, read each answer's rate-limit headers — and nothing else. S4 measures it
 * beside Headway's interceptor as a reference row, and `bench/interceptor-floor.ts` alone.
 */
import { readRateLimit } from 'headway';
import type { Dispatcher } from 'undici';

/** Forwards every event of one dispatch to the caller's handler, reading the answer's rate-limit headers. */
class FloorHandler implements Dispatcher.DispatchHandler {
  readonly #handler: Dispatcher.DispatchHandler;
  readonly #lane: { sent: number; last: unknown };

  constructor(handler: Dispatcher.DispatchHandler, lane: { sent: number; last: unknown }) {
    this.#handler = handler;
    this.#lane = lane;
  }
  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.#handler.onRequestStart?.(controller, context as never);
  }
  onResponseStart(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: Record<string, string | string[] | undefined>,
    message?: string,
  ): void {
    this.#lane.last = readRateLimit({ status, headers }, { receivedAt: Date.now() });
    this.#handler.onResponseStart?.(controller, status, headers, message);
  }
  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#handler.onResponseData?.(controller, chunk);
  }
  onResponseEnd(
    controller: Dispatcher.DispatchController,
    trailers: Record<string, string | string[] | undefined>,
  ): void {
    this.#handler.onResponseEnd?.(controller, trailers);
  }
  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.#handler.onResponseError?.(controller, error);
  }
}

/** The unavoidable work: the key (the origin), one map lookup, the headers of each answer read. */
export const floorInterceptor: Dispatcher.DispatcherComposeInterceptor = (dispatch) => {
  const lanes = new Map<string, { sent: number; last: unknown }>();
  return (opts, handler) => {
    const key = String(opts.origin);
    let lane = lanes.get(key);
    if (lane === undefined) {
      lane = { sent: 0, last: null };
      lanes.set(key, lane);
    }
    lane.sent++;
    return dispatch(opts, new FloorHandler(handler, lane));
  };
};

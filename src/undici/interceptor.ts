/**
 * `headwayInterceptor()`: the client engine as an undici interceptor, for `Agent#compose` /
 * `Dispatcher#compose`. A thin face over the {@link Engine}: one attempt is one `dispatch` of the
 * next dispatcher; its status and headers go to the engine, which says whether the answer is
 * delivered to the caller's handler or dropped for a retry. Modelled on undici's own retry
 * interceptor (`lib/handler/retry-handler.js`): the caller's handler sees one stable controller for
 * the whole call. A first attempt's answer is decided on its head, within undici's callback, and
 * forwarded at once; a retry's early chunks are held while the engine decides, and an answer kept
 * for a retry (until the retry leaves) is paused meanwhile. Held chunks reach the caller as it
 * reads them: its pause holds them, its abort stops them.
 *
 * Retries need the body again: none, a string or bytes is sent again; a stream or an iterable (what
 * the global `fetch` hands its dispatcher for any body) is sent once and never retried.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { type ParsedUrlQueryInput, stringify } from 'node:querystring';
import type { Duplex } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { LazySignal } from '../client/call-context.js';
import {
  type AttemptSink,
  type CallSink,
  Engine,
  type EngineEvents,
  type Transport,
} from '../client/engine.js';
import type { ClientOptions } from '../client/options.js';
import type { RequestDescription } from '../client/request.js';
import { append } from '../core/append.js';
import type { Clock } from '../core/clock.js';
import { invalid } from '../core/validate.js';
import { withSingleContentLength } from './content-length.js';

type DispatchHandler = Dispatcher.DispatchHandler;
type DispatchController = Dispatcher.DispatchController;
type DispatchOptions = Dispatcher.DispatchOptions;

/** Options of {@link headwayInterceptor}: the client's, except `fetch` (the next dispatcher is the transport). */
export type InterceptorOptions = Omit<ClientOptions, 'fetch'>;

/** An undici interceptor that paces, plus the engine's events and stats. */
export interface HeadwayInterceptor extends EngineEvents {
  (dispatch: Dispatcher.Dispatch): Dispatcher.Dispatch;
}

/** Creates the interceptor. Options are validated here, not at the first request. */
export function headwayInterceptor(options: InterceptorOptions = {}): HeadwayInterceptor {
  if (typeof options === 'object' && options !== null && (options as ClientOptions).fetch !== undefined) {
    invalid(
      'fetch',
      'unset: the next dispatcher is the transport of an interceptor',
      (options as ClientOptions).fetch,
    );
  }
  const engine = new Engine(options);
  const interceptor = (dispatch: Dispatcher.Dispatch): Dispatcher.Dispatch =>
    function headwayDispatch(opts: DispatchOptions, handler: DispatchHandler): boolean {
      // An upgrade (WebSocket) or a CONNECT tunnel has no answer to pace on: it passes through. So
      // does a dispatch undici will refuse (no method string), to get undici's own typed error.
      if (opts.upgrade || opts.method === 'CONNECT' || typeof opts.method !== 'string')
        return dispatch(opts, handler);
      new PacedCall(engine, dispatch, opts, handler).start();
      return true;
    };
  return Object.assign(interceptor, engine.api);
}

/**
 * One call through the interceptor: the engine's loop, with `dispatch` as its transport. A first
 * attempt that may go at once is decided on its answer's head, which is then delivered at once;
 * a retry's answer is held until the engine decides. Its caller's signal is made only when the
 * engine waits ({@link LazySignal}): an abort reaches the live attempt directly.
 *
 * It is also the caller's controller: one across attempts, forwarding to the live attempt's
 * (`target`, once an answer is delivered); `abort` also cancels a pacing wait or backoff.
 */
class PacedCall
  implements Transport<AttemptHandler>, CallSink<AttemptHandler>, LazySignal, DispatchController
{
  readonly #engine: Engine;
  readonly #dispatch: Dispatcher.Dispatch;
  readonly #opts: DispatchOptions;
  readonly #handler: DispatchHandler;
  #abort: AbortController | null = null;
  /** Why the caller aborted, once it did. */
  #reason: Error | null = null;
  #paused = false;
  #target: DispatchController | null = null;
  /** The attempt whose 1xx (informational) answer the caller is being told of, meanwhile. */
  #informing: DispatchController | null = null;
  #live: AttemptHandler | null = null;
  /** The attempt whose answer is delivered, while part of what it held is still to forward. */
  #delivering: AttemptHandler | null = null;
  /** What the caller's stream body failed with, once it did (the caller's doing, not an outage). */
  #bodyFailure: { error: unknown } | null = null;
  /** Answers dropped for a retry whose body had not ended then (see {@link AttemptHandler.drop}). */
  #dropped: AttemptHandler[] | null = null;

  constructor(
    engine: Engine,
    dispatch: Dispatcher.Dispatch,
    opts: DispatchOptions,
    handler: DispatchHandler,
  ) {
    this.#engine = engine;
    this.#dispatch = dispatch;
    this.#opts = withSingleContentLength(opts);
    this.#handler = handler;
  }

  /** The delivered attempt's controller; a pause asked for before it existed carries over. */
  set target(target: DispatchController | null) {
    this.#target = target;
    if (this.#paused) target?.pause();
  }
  get aborted(): boolean {
    return this.#reason !== null || (this.#target?.aborted ?? false);
  }
  get paused(): boolean {
    return this.#paused;
  }
  get reason(): Error | null {
    return this.#reason ?? this.#target?.reason ?? null;
  }
  /**
   * The delivered attempt's raw header list (undici's `fetch` builds a Response's headers from it,
   * and `responseHeaders: 'raw'` reads it), as undici's own retry controller forwards it.
   */
  get rawHeaders(): Buffer[] | null {
    return ((this.#target ?? this.#informing) as RawLists | null)?.rawHeaders ?? null;
  }
  set rawHeaders(value: Buffer[] | null) {
    if (this.#target) (this.#target as RawLists).rawHeaders = value;
  }
  /** The delivered attempt's raw trailer list. */
  get rawTrailers(): Buffer[] | null {
    return (this.#target as RawLists | null)?.rawTrailers ?? null;
  }
  set rawTrailers(value: Buffer[] | null) {
    if (this.#target) (this.#target as RawLists).rawTrailers = value;
  }
  pause(): void {
    this.#paused = true;
    this.#target?.pause();
  }
  /** Resumes: what the delivered answer still holds goes first, then the attempt reads on. */
  resume(): void {
    this.#paused = false;
    const delivering = this.#delivering;
    if (delivering !== null) {
      if (!delivering.pump()) return; // paused (or aborted) again before the held part was through
      this.#delivering = null;
    }
    this.#target?.resume();
  }

  /**
   * Tells the caller's handler of an attempt's 1xx answer (103 Early Hints), its raw header list
   * read from that attempt (none is delivered yet).
   */
  inform(
    attempt: DispatchController | null,
    status: number,
    headers: IncomingHttpHeaders,
    message?: string,
  ): void {
    this.#informing = attempt;
    try {
      this.#handler.onResponseStart?.(this, status, headers, message);
    } finally {
      this.#informing = null;
    }
  }

  /** `attempt` is delivered and still holds part of its answer, forwarded as the caller reads. */
  set delivering(attempt: AttemptHandler | null) {
    this.#delivering = attempt;
  }

  signal(): AbortSignal {
    if (this.#abort === null) {
      this.#abort = new AbortController();
      if (this.#reason) this.#abort.abort(this.#reason);
    }
    return this.#abort.signal;
  }

  /**
   * An attempt started with a context from an interceptor below (undici's redirect threads the
   * URLs it followed there, which its cache interceptor above reads): the caller's handler is
   * started again with it, as undici's redirect handler starts it once per hop.
   */
  startedWith(context: object): void {
    this.#handler.onRequestStart?.(this, context as never);
  }

  /** The caller aborted: the live attempt stops, and so does any wait. */
  abort(reason: Error): void {
    if (this.#reason !== null) return;
    this.#reason = reason;
    this.#target?.abort(reason);
    this.#live?.abort(reason);
    this.#abort?.abort(reason);
  }

  start(): void {
    // At once, not at the first attempt: the caller can abort while the call waits its turn.
    this.#handler.onRequestStart?.(this, {});
    let request: RequestDescription;
    let origin: string;
    try {
      request = new DispatchDescription(this.#opts);
      origin = originOf(this.#opts);
    } catch (error) {
      this.#fail(error);
      return;
    }
    const { body } = this.#opts;
    if (isEmitter(body)) body.once('error', (error: unknown) => (this.#bodyFailure ??= { error }));
    const spec = { request, origin, replayable: isReplayableBody(body), signal: this };
    this.#engine.start(spec, this, this);
  }

  /**
   * The answer the engine returns, after retries ({@link CallSink}); a caller who aborted while it
   * was held gets the abort instead (the held attempt may have ended before the abort reached it).
   */
  deliver(answer: AttemptHandler): void {
    if (this.#reason !== null) {
      this.discard(answer);
      this.fail(this.#reason);
      return;
    }
    this.#releaseStreaming();
    answer.deliver();
  }

  /** Reports the call's end as an error; an abort by the caller reports the caller's own reason. */
  fail(error: unknown): void {
    this.#fail(error);
  }

  /**
   * The call has its answer: an answer it dropped whose body is still coming (a stream: a
   * refusal's body comes whole, with its head or just after) is aborted, so its connection is
   * freed now rather than {@link DROPPED_BODY_MS} after its drop. One whose body has not started
   * is left to that wait (a short body on its way keeps its connection).
   */
  #releaseStreaming(): void {
    const dropped = this.#dropped;
    if (dropped === null) return;
    this.#dropped = null;
    for (const answer of dropped) if (answer.bodyStarted) answer.abortDropped();
  }

  #fail(error: unknown): void {
    const reason = this.reason ?? (error instanceof Error ? error : new Error(String(error)));
    this.#handler.onResponseError?.(this, reason);
  }

  /** The first attempt: its answer's head goes to the engine at once, and is delivered when it says so. */
  dispatch(signal: AbortSignal | undefined, sink: AttemptSink<AttemptHandler>): void {
    this.#attempt(signal, sink);
  }

  /** A retry: its answer is held until the engine decides. */
  send(signal: AbortSignal | undefined): Promise<AttemptHandler> {
    return new Promise((resolve, reject) => {
      this.#attempt(signal, {
        answered: (answer) => {
          resolve(answer);
          return false;
        },
        failed: reject,
      });
    });
  }

  #attempt(signal: AbortSignal | undefined, sink: AttemptSink<AttemptHandler>): void {
    const attempt = new AttemptHandler(this.#handler, this, signal, sink);
    this.#live = attempt;
    if (this.#reason) {
      // Aborted already: the attempt fails at once, and undici never sees it.
      attempt.abort(this.#reason);
      return;
    }
    try {
      this.#dispatch(this.#opts, attempt);
    } catch (error) {
      attempt.dispatchFailed(error);
    }
  }

  discard(answer: AttemptHandler): void {
    if (!answer.drop(this.#engine.options.clock)) return;
    this.#dropped ??= [];
    this.#dropped.push(answer);
  }

  /** The answer's `close` is called when its body ends or fails (see {@link AttemptHandler.onceEnded}). */
  untilBodyEnd(answer: AttemptHandler, close: () => void): AttemptHandler {
    answer.onceEnded(close);
    return answer;
  }

  /** The caller's stream body failed: the attempt's failure is the caller's doing. */
  notServerFault(error: unknown): boolean {
    const failure = this.#bodyFailure;
    return (
      failure !== null &&
      (error === failure.error || (error as { cause?: unknown } | null)?.cause === failure.error)
    );
  }

  /**
   * undici refused the dispatch: its arguments (a bad header value, …), or a dispatcher closed or
   * destroyed: it was never sent, and sending again through it cannot succeed.
   */
  refused(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_CLOSED' || code === 'UND_ERR_DESTROYED';
  }
}

/**
 * The handler of one attempt: reports the answer's head to its sink, which delivers it at once or
 * holds it (its early chunks kept) until the engine delivers or drops it. Once its head is in, it
 * is its own answer (its status and headers): no object per answer.
 */
class AttemptHandler implements DispatchHandler {
  /** The answer's status, once its head is in. */
  status = 0;
  /** The answer's headers, once its head is in. */
  headers: IncomingHttpHeaders = NO_HEADERS;
  /** The answer's status text, once its head is in. */
  statusMessage: string | undefined = undefined;
  readonly #downstream: DispatchHandler;
  readonly #call: PacedCall;
  readonly #signal: AbortSignal | undefined;
  /** Where the head (or the failure before it) goes; `null` once reported. */
  #sink: AttemptSink<AttemptHandler> | null;
  #controller: DispatchController | null = null;
  /** `held` until the engine decides; then `delivered` (forwarded) or `dropped` (read and ignored). */
  #state: 'waiting' | 'held' | 'delivered' | 'dropped' = 'waiting';
  /**
   * The chunks held while the engine decides, and after, those not yet forwarded to a caller who
   * paused; made on the first (a first attempt holds none). `#next` is the first not forwarded.
   */
  #chunks: Buffer[] | null = null;
  #next = 0;
  #ended: { trailers: IncomingHttpHeaders } | null = null;
  #failed: Error | null = null;
  /** The end (or the error) went to the caller's handler. */
  #finished = false;
  /** Bytes of body held while the answer is kept for a retry (see {@link HELD_BODY_BYTES}). */
  #heldBytes = 0;
  /** The attempt was paused while held (see `onResponseData`): resumed when delivered or dropped. */
  #pausedToHold = false;
  /** Why the attempt was aborted before it started, if it was. */
  #abortedWith: Error | null = null;
  /** Listens to `signal`; made only when there is one. */
  #onAbort: (() => void) | null = null;
  /** Called once the answer's body ends or fails (see {@link onceEnded}). */
  #onEnded: (() => void) | null = null;
  /** The attempt is over: its answer ended or failed, or it failed before one. */
  #over = false;
  /** Part of the answer's body has come. */
  bodyStarted = false;
  /** Stops the wait of a dropped answer's body (see {@link drop}); made only for one not ended. */
  #dropWait: AbortController | null = null;

  constructor(
    downstream: DispatchHandler,
    call: PacedCall,
    signal: AbortSignal | undefined,
    sink: AttemptSink<AttemptHandler>,
  ) {
    this.#downstream = downstream;
    this.#call = call;
    this.#signal = signal;
    this.#sink = sink;
    // From now, not from `onRequestStart`: undici starts a request only once it has a connection,
    // and a timeout, a deadline or an abort must end an attempt still queued for one.
    if (signal?.aborted) this.#abortedWith = abortReason(signal);
    else if (signal) {
      this.#onAbort = () => this.abort(abortReason(signal));
      signal.addEventListener('abort', this.#onAbort, { once: true });
    }
  }

  /**
   * Calls `close` when the answer's body has ended or failed upstream (at once if it has): the
   * server is done with the call then, whether or not the caller has read it all.
   */
  onceEnded(close: () => void): void {
    if (this.#ended !== null || this.#failed !== null) close();
    else this.#onEnded = close;
  }

  /** The next dispatcher threw: the attempt failed before its head (if it was not reported yet). */
  dispatchFailed(error: unknown): void {
    const sink = this.#sink;
    if (sink === null) return;
    this.#sink = null;
    this.#done();
    sink.failed(error);
  }

  onRequestStart(controller: DispatchController, context: unknown): void {
    this.#controller = controller;
    if (this.#abortedWith) controller.abort(this.#abortedWith);
    // undici's core passes none (or an empty one); an interceptor below may (see `PacedCall.startedWith`).
    else if (hasEntries(context) && this.#state !== 'dropped') this.#call.startedWith(context);
  }

  /**
   * The attempt is aborted (the caller, its timeout or the deadline): a started one through its
   * controller (undici then reports the error); one not started yet fails at once, and is
   * aborted when undici starts it.
   */
  abort(reason: Error): void {
    if (this.#controller) {
      this.#controller.abort(reason);
      return;
    }
    this.#abortedWith ??= reason;
    const sink = this.#sink;
    if (sink === null) return;
    this.#sink = null;
    this.#done();
    sink.failed(reason);
  }

  onRequestUpgrade(
    _controller: DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    socket: Duplex,
  ): void {
    this.#call.target = this.#controller;
    this.#downstream.onRequestUpgrade?.(this.#call, statusCode, headers, socket);
  }

  onResponseStart(
    _controller: DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    const sink = this.#sink;
    if (statusCode < 200) {
      // 1xx (103 Early Hints, 102): informational, not an answer: the caller sees it, the engine does not.
      if (sink !== null) this.#call.inform(this.#controller, statusCode, headers, statusMessage);
      return;
    }
    if (sink === null) return;
    this.#sink = null;
    // Not paused: the engine decides at once or within microtasks (its waits come after a drop),
    // and the chunks that arrive meanwhile are held, as few as one read of the socket.
    this.#state = 'held';
    this.status = statusCode;
    this.headers = headers;
    this.statusMessage = statusMessage;
    if (sink.answered(this)) this.deliver();
  }

  onResponseData(_controller: DispatchController, chunk: Buffer): void {
    this.bodyStarted = true;
    if (this.#state === 'delivered' && this.#chunks === null)
      this.#downstream.onResponseData?.(this.#call, chunk);
    else if (this.#state === 'held' || this.#state === 'delivered') {
      this.#chunks = append(this.#chunks, chunk);
      // Held for a retry (kept until the retry leaves, which may be a long wait): a short body is
      // read to its end, so the connection is free for other calls (on a `Client` the retry may
      // wait for one queued behind it); a longer one stops being read, not read whole into memory.
      if (this.#state !== 'held') return;
      this.#heldBytes += chunk.length;
      if (this.#heldBytes > HELD_BODY_BYTES && !this.#pausedToHold && this.#controller) {
        this.#pausedToHold = true;
        this.#controller.pause();
      }
    }
  }

  onResponseEnd(_controller: DispatchController, trailers: IncomingHttpHeaders): void {
    this.#done();
    if (this.#state === 'held' || this.#state === 'delivered') {
      this.#ended = { trailers };
      // An end that comes while the caller is paused (undici's pause is advisory: a closing
      // connection ends the answer anyway) is owed to the caller's resume.
      if (this.#state === 'delivered' && !this.pump()) this.#call.delivering = this;
    }
  }

  onResponseError(_controller: DispatchController, error: Error): void {
    this.#done();
    const sink = this.#sink;
    if (sink !== null) {
      this.#sink = null;
      sink.failed(error);
    } else if (this.#state === 'held' || this.#state === 'delivered') {
      this.#failed = error;
      if (this.#state === 'delivered' && !this.pump()) this.#call.delivering = this;
    }
  }

  /**
   * The engine returns this answer: the caller's handler gets its head, then the held chunks and
   * the rest as it reads them (a pause holds them, an abort stops them), as undici's core does.
   */
  deliver(): void {
    this.#state = 'delivered';
    const call = this.#call;
    call.target = this.#controller;
    try {
      this.#downstream.onResponseStart?.(call, this.status, this.headers, this.statusMessage);
    } catch (thrown) {
      this.#thrown(thrown);
      return;
    }
    if (this.pump()) {
      // Everything held is through: the attempt reads on, unless the caller paused.
      if (this.#pausedToHold && !call.paused) this.#controller?.resume();
    } else call.delivering = this;
  }

  /**
   * Forwards what is held, in order, while the caller reads (not paused, not aborted), then the
   * end or the error once. True when nothing held is left to forward.
   */
  pump(): boolean {
    if (this.#finished) return true;
    const call = this.#call;
    const downstream = this.#downstream;
    try {
      const chunks = this.#chunks;
      if (chunks !== null) {
        while (this.#next < chunks.length) {
          if (call.paused || call.aborted) return this.#stopped();
          downstream.onResponseData?.(call, chunks[this.#next++] as Buffer);
        }
        this.#chunks = null;
        this.#next = 0;
      }
      if (call.aborted) return this.#stopped();
      if (this.#failed) {
        this.#finished = true;
        downstream.onResponseError?.(call, this.#failed);
      } else if (this.#ended) {
        if (call.paused) return false;
        this.#finished = true;
        downstream.onResponseEnd?.(call, this.#ended.trailers);
      }
    } catch (thrown) {
      this.#thrown(thrown);
    }
    return true;
  }

  /**
   * The caller paused or aborted with held parts left: a pause keeps them for its resume; an abort
   * of an attempt that has ended (undici ignores an abort then) is reported here, once.
   */
  #stopped(): boolean {
    const call = this.#call;
    if (!call.aborted) return false;
    this.#chunks = null;
    if ((this.#ended !== null || this.#failed !== null) && !this.#finished) {
      this.#finished = true;
      this.#downstream.onResponseError?.(call, call.reason ?? new Error('aborted'));
    }
    return true;
  }

  /**
   * A handler that throws ends its response, as undici's own core does; an attempt that has ended
   * already cannot be aborted, so the error is reported to the handler here.
   */
  #thrown(thrown: unknown): void {
    const error = thrown instanceof Error ? thrown : new Error(String(thrown));
    this.#chunks = null;
    if (this.#ended === null && this.#failed === null) this.#controller?.abort(error);
    else if (!this.#finished) {
      this.#finished = true;
      this.#downstream.onResponseError?.(this.#call, error);
    }
  }

  /**
   * The engine drops this answer: the rest of its body is read and ignored, so the connection stays
   * usable. A body that has not ended within {@link DROPPED_BODY_MS} on `clock` (or is still coming
   * when the call has its answer: `PacedCall.deliver`) is aborted instead, its connection closed:
   * one that never ends would hold it for good. True when the body has not ended yet.
   */
  drop(clock: Clock): boolean {
    if (this.#state !== 'held') return false;
    this.#state = 'dropped';
    this.#chunks = null;
    if (this.#pausedToHold) this.#controller?.resume();
    if (this.#over) return false;
    const wait = new AbortController();
    this.#dropWait = wait;
    clock.sleep(DROPPED_BODY_MS, wait.signal).then(
      () => this.abortDropped(),
      () => {}, // the body ended first
    );
    return true;
  }

  /** A dropped answer whose body has not ended is aborted (its connection closed). */
  abortDropped(): void {
    if (this.#state !== 'dropped' || this.#over) return;
    this.#controller?.abort(new Error('a dropped answer whose body did not end'));
  }

  #done(): void {
    this.#over = true;
    this.#dropWait?.abort();
    if (this.#onAbort) this.#signal?.removeEventListener('abort', this.#onAbort);
    const ended = this.#onEnded;
    if (ended !== null) {
      this.#onEnded = null;
      ended();
    }
  }
}

/** True for an object with a property of its own. */
function hasEntries(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  for (const _ in value) return true;
  return false;
}

/** undici's controllers carry the raw header and trailer lists beside the typed interface. */
interface RawLists {
  rawHeaders: Buffer[] | null;
  rawTrailers: Buffer[] | null;
}

/**
 * Longest a dropped answer's body is read for (see {@link AttemptHandler.drop}): a refusal's body
 * comes with its head or just after, and one that has not ended by then is a stream.
 */
const DROPPED_BODY_MS = 5_000;

/**
 * Most bytes of an answer kept for a retry read before the attempt is paused: a refusal's body
 * (usually a line of JSON) is read to its end and its connection freed; a longer one waits unread.
 */
const HELD_BODY_BYTES = 64 * 1024;

/** The headers of an attempt whose head is not in yet. */
const NO_HEADERS: IncomingHttpHeaders = Object.freeze({});

function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new Error('aborted', { cause: reason });
}

/**
 * What `key(request)` and `cost(request)` see of a dispatch: the URL and headers are read on first
 * use. A class, so that a call makes one object and no accessor closures.
 */
class DispatchDescription implements RequestDescription {
  readonly method: string;
  readonly body: string | undefined;
  readonly #opts: DispatchOptions;
  #url: URL | undefined;
  #headers: Headers | undefined;

  constructor(opts: DispatchOptions) {
    this.#opts = opts;
    this.method = upperCase(opts.method);
    this.body = typeof opts.body === 'string' ? opts.body : undefined;
  }

  get url(): URL {
    this.#url ??= urlOf(this.#opts);
    return this.#url;
  }

  get headers(): Headers {
    this.#headers ??= headersOf(this.#opts.headers);
    return this.#headers;
  }
}

/**
 * The URL undici sends: the origin, then the path as written (one that starts with `//` stays a
 * path on the origin's host), then `query` as undici serializes it.
 */
function urlOf({ origin, path, query }: DispatchOptions): URL {
  const url = new URL(origin === undefined ? path : String(origin));
  if (origin === undefined) return url;
  const mark = path.indexOf('?');
  url.pathname = mark < 0 ? path : path.slice(0, mark);
  url.search = mark < 0 ? '' : path.slice(mark);
  if (query) url.search = stringify(query as ParsedUrlQueryInput);
  return url;
}

/**
 * The method in capitals: the methods callers spell so already are returned as they are (no new
 * string per request), found by a switch over string constants, compiled in place (no hash lookup).
 */
function upperCase(method: string): string {
  switch (method) {
    case 'GET':
    case 'HEAD':
    case 'POST':
    case 'PUT':
    case 'PATCH':
    case 'DELETE':
    case 'OPTIONS':
      return method;
    default:
      return method.toUpperCase();
  }
}

/** Origins as dispatches name them → as `URL#origin` spells them (the default key). Bounded. */
const ORIGINS = new Map<string, string>();

/**
 * The last origin looked up, and its spelling: undici builds a new origin string per request,
 * which a map would hash every time; comparing it with the last one costs less.
 */
let lastRawOrigin: string | null = null;
let lastOrigin = '';

/** The dispatch's origin, spelled as `URL#origin`, without parsing a URL per request. */
function originOf(opts: DispatchOptions): string {
  const raw = opts.origin;
  if (raw === undefined) return new URL(opts.path).origin;
  if (typeof raw !== 'string') return raw.origin;
  if (raw === lastRawOrigin) return lastOrigin;
  let origin = ORIGINS.get(raw);
  if (origin === undefined) {
    if (ORIGINS.size >= 1024) ORIGINS.clear();
    origin = new URL(raw).origin;
    ORIGINS.set(raw, origin);
  }
  lastRawOrigin = raw;
  lastOrigin = origin;
  return origin;
}

/** undici's header shapes (a record, a flat `[name, value, …]` array, or pairs) as Fetch `Headers`. */
function headersOf(source: DispatchOptions['headers']): Headers {
  const headers = new Headers();
  if (source === null || source === undefined) return headers;
  const add = (name: unknown, value: unknown) => {
    if (value === undefined || value === null) return;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(String(name), String(v));
  };
  if (Array.isArray(source) && (source.length === 0 || !Array.isArray(source[0]))) {
    for (let i = 0; i + 1 < source.length; i += 2) add(source[i], source[i + 1]);
  } else if (typeof (source as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [name, value] of source as Iterable<[string, unknown]>) add(name, value);
  } else {
    for (const [name, value] of Object.entries(source)) add(name, value);
  }
  return headers;
}

/** A body that is a Node stream (it reports its failure as an `error` event). */
function isEmitter(body: DispatchOptions['body']): body is DispatchOptions['body'] & NodeJS.EventEmitter {
  return typeof (body as { once?: unknown } | null | undefined)?.once === 'function';
}

/** True when a dispatch body can be sent again: none, a string or bytes. */
function isReplayableBody(body: DispatchOptions['body']): boolean {
  return (
    body === undefined ||
    body === null ||
    typeof body === 'string' ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

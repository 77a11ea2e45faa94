/**
 * The client engine, shared by every face (`createFetch`, the undici interceptor, `installGlobal`):
 * per call, acquire a send from the key's {@link KeyLane} → one attempt through the face's
 * {@link Transport} → read the answer's status and headers → its verdict → settle the lane →
 * retry inside the budget, or stop. A face only says how to send one attempt and how to drop an
 * answer it will not return; everything else (keys, pacing, server models, verdicts, retries,
 * events, stats) is decided here and in {@link EngineCall}, once.
 */

import { ignoreRejection } from '../core/ignore-rejection.js';
import { defaultBurst } from '../core/limit.js';
import { invalid } from '../core/validate.js';
import type { RateLimitResponse } from '../signals/read-rate-limit.js';
import type { CallerSignal } from './call-context.js';
import { defaultKey } from './default-key.js';
import { EngineCall } from './engine-call.js';
import type { GiveUpEvent, RateLimitedEvent, RetryEvent, ThrottleEvent } from './events.js';
import { EventChannel } from './events.js';
import type { KeyStats } from './key-lane.js';
import { KeyLane } from './key-lane.js';
import type { ClientOptions, ResolvedClientOptions } from './options.js';
import { keyOptionsFor, resolveClientOptions } from './options.js';
import type { RequestDescription } from './request.js';
import { SharedQuota } from './shared-quota.js';

/** How a face sends one attempt of a call, and what it does with an answer the engine drops. */
export interface Transport<A extends RateLimitResponse> {
  /** Sends one attempt; `signal` aborts it (the caller, the deadline or the attempt's timeout). */
  send(signal: AbortSignal | undefined): Promise<A>;
  /** Releases an answer that is not returned (it is retried, or an error is thrown instead). */
  discard(answer: A): void;
  /** The answer as a Fetch `Response`, for the errors that carry one. */
  response?(answer: A): Response | undefined;
  /**
   * True when a failed attempt's `error` says it was never sent: the transport refused its
   * arguments (a GET with a body, a bad header value). The call then ends with that error,
   * unretried, and the key learns nothing from it (no outage).
   */
  refused?(error: unknown): boolean;
  /**
   * True when a failed attempt's `error` is neither the server's doing nor the network's: the
   * transport refused the answer it got (`fetch` with a redirect it must not follow), or the
   * caller's own request body failed. The call ends with that error, unretried, and the key learns
   * no outage from it.
   */
  notServerFault?(error: unknown): boolean;
  /**
   * Sends one attempt and reports its end to `attempt` as it happens, without a promise: a face
   * that can hold an answer at its head (the undici interceptor) then learns at once whether to
   * deliver it. Used for a call's first attempt when it may go at once; `send` for the others.
   */
  dispatch?(signal: AbortSignal | undefined, attempt: AttemptSink<A>): void;
  /**
   * The answer as the caller gets it, with `close` called once when its body ends (or fails, or is
   * cancelled): an event stream the engine returns holds its place among the key's calls in flight
   * until then. A face that can `dispatch` returns `answer` itself. Without it, no answer holds a place.
   */
  untilBodyEnd?(answer: A, close: () => void): A;
}

/** Where a face reports the end of an attempt sent with {@link Transport.dispatch}. */
export interface AttemptSink<A> {
  /** The answer's head arrived: true when the face is to deliver it now (else the engine dropped it). */
  answered(answer: A): boolean;
  /** The attempt ended without an answer. */
  failed(error: unknown): void;
}

/** Where {@link Engine.start} reports a call's end. */
export interface CallSink<A> {
  /** The answer to return, once retries (if any) are over. Not called for an answer `answered` already delivered. */
  deliver(answer: A): void;
  /** The call ended with an error. */
  fail(error: unknown): void;
}

/** One call as a face hands it to the engine. */
export interface CallSpec {
  request: RequestDescription;
  /** `request.url.origin`, when the face knows it without parsing the URL. */
  origin?: string | undefined;
  /** The body can be sent again (none, string, bytes…): a stream is sent once. */
  replayable: boolean;
  /** The caller's signal; a {@link LazySignal} is made only when the engine needs it. */
  signal?: CallerSignal | null | undefined;
  /** Overrides the key's `deadlineMs`. */
  deadlineMs?: number | undefined;
  /** Overrides the key's `timeoutMs`. */
  timeoutMs?: number | undefined;
  /** Higher leaves its key's queue first. @default 0 */
  priority?: number | undefined;
}

/** The events and stats every face exposes. */
export interface EngineEvents {
  /** A call waits for pacing, a gate or an outage probe. Returns the unsubscribe function. */
  onThrottle(listener: (event: ThrottleEvent) => void): () => void;
  /** A call is retried. */
  onRetry(listener: (event: RetryEvent) => void): () => void;
  /** A response said the key is rate limited (429, or a retry hint on 403/503). */
  onRateLimited(listener: (event: RateLimitedEvent) => void): () => void;
  /** A call stops retrying. */
  onGiveUp(listener: (event: GiveUpEvent) => void): () => void;
  /** One snapshot per key seen so far. */
  stats(): KeyStats[];
}

/** Most keys kept; beyond it, idle keys are forgotten oldest first. */
const MAX_KEYS = 10_000;
/**
 * A key in use moves to the back of the map once this many keys were seen since it last moved:
 * a key used within the last 5,000 new keys is never the one forgotten, at no cost per call.
 */
const MOVE_AFTER = MAX_KEYS / 2;

/** The engine of one client: its options, its keys' lanes, its events. */
export class Engine {
  readonly options: ResolvedClientOptions;
  readonly #lanes = new Map<string, KeyLane>();
  /** Keys seen so far (lanes made). */
  #seen = 0;
  readonly #events: Channels = {
    throttle: new EventChannel<ThrottleEvent>(),
    retry: new EventChannel<RetryEvent>(),
    rateLimited: new EventChannel<RateLimitedEvent>(),
    giveUp: new EventChannel<GiveUpEvent>(),
  };
  /** The subscriptions and stats, bound, for a face to expose as they are. */
  readonly api: EngineEvents = {
    onThrottle: this.#events.throttle.subscribe,
    onRetry: this.#events.retry.subscribe,
    onRateLimited: this.#events.rateLimited.subscribe,
    onGiveUp: this.#events.giveUp.subscribe,
    stats: () => [...this.#lanes.values()].map((lane) => lane.stats()),
  };

  /** Options are validated here, not at the first call. */
  constructor(options: ClientOptions = {}) {
    this.options = resolveClientOptions(options);
  }

  #laneFor(key: string, request: RequestDescription): KeyLane {
    const lanes = this.#lanes;
    let lane = lanes.get(key);
    if (lane) {
      // Keep recently used keys toward the back (eviction drops idle keys from the front).
      if (this.#seen - lane.placedAt > MOVE_AFTER) {
        lanes.delete(key);
        lanes.set(key, lane);
        lane.placedAt = this.#seen;
      }
      return lane;
    }
    const resolved = this.options;
    const keyOptions = keyOptionsFor(resolved, key, request.url);
    // With a store, a key shares its gate, and its pacing: configured, or learned from the server.
    const { rate } = keyOptions;
    const shared = resolved.store
      ? new SharedQuota(
          resolved.store,
          key,
          rate === undefined ? null : { rate, burst: keyOptions.burst ?? defaultBurst(rate) },
          keyOptions.expectedWorkers,
          resolved.clock,
        )
      : undefined;
    // Room first, so the new key's own lane is never the one forgotten.
    if (lanes.size >= MAX_KEYS) {
      for (const [oldKey, old] of lanes) {
        if (lanes.size < MAX_KEYS) break;
        if (old.idle) lanes.delete(oldKey);
      }
    }
    lane = new KeyLane(key, keyOptions, resolved.clock, resolved.random, shared);
    lane.placedAt = ++this.#seen;
    lanes.set(key, lane);
    return lane;
  }

  /**
   * Runs one call to its end: resolves with the answer to return (success, or the last answer when
   * retrying stops), or rejects with a `HeadwayError` (or the transport's own error when the last
   * attempt got no answer).
   */
  run<A extends RateLimitResponse>(spec: CallSpec, transport: Transport<A>): Promise<A> {
    try {
      return this.#call(spec, transport).run();
    } catch (error) {
      // A throwing `key` or `cost` option rejects the call, as everything after it does.
      return Promise.reject(error);
    }
  }

  /**
   * Runs one call as {@link run} does, reporting its end to `sink`. With a transport that can
   * `dispatch`, a first attempt that may go at once is decided on the answer's head, with no
   * promise: the face delivers it at once when {@link AttemptSink.answered} says so.
   */
  start<A extends RateLimitResponse>(spec: CallSpec, transport: Transport<A>, sink: CallSink<A>): void {
    let call: EngineCall<A>;
    try {
      call = this.#call(spec, transport);
    } catch (error) {
      sink.fail(error);
      return;
    }
    call.start(sink);
  }

  #call<A extends RateLimitResponse>(spec: CallSpec, transport: Transport<A>): EngineCall<A> {
    const resolved = this.options;
    const { request } = spec;
    const key = resolved.key ? resolved.key(request) : defaultKey(spec.origin ?? request.url.origin, request);
    // An `async` key (a new promise per call) would give every call a quota of its own.
    if (typeof key !== 'string') {
      ignoreRejection(key);
      invalid('key()', 'a string (not a promise)', key);
    }
    const lane = this.#laneFor(key, request);
    return new EngineCall(resolved, this.#events, key, lane, spec, transport);
  }
}

/** The events of one engine. */
export interface Channels {
  throttle: EventChannel<ThrottleEvent>;
  retry: EventChannel<RetryEvent>;
  rateLimited: EventChannel<RateLimitedEvent>;
  giveUp: EventChannel<GiveUpEvent>;
}

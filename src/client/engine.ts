/**
 * The client engine, shared by every face (`createFetch`, the undici interceptor, `installGlobal`):
 * per call, acquire a send from the key's {@link KeyLane} → one attempt through the face's
 * {@link Transport} → read the answer's status and headers → {@link verdictOf} → settle the lane →
 * retry inside the budget, or stop. A face only says how to send one attempt and how to drop an
 * answer it will not return; everything else (keys, pacing, server models, verdicts, retries,
 * events, stats) is decided here, once.
 */

import { fullJitter } from '../core/backoff.js';
import { defaultBurst } from '../core/limit.js';
import type { CallFacts } from '../errors.js';
import { RateLimitedError, RetryBudgetExhaustedError, TimeoutError } from '../errors.js';
import type { RateLimitResponse } from '../signals/read-rate-limit.js';
import { readRateLimit } from '../signals/read-rate-limit.js';
import type { RateLimitSignal } from '../signals/signal.js';
import { type Attempt, CallContext, type CallerSignal } from './call-context.js';
import { type Costs, normalizeCost, settleLater } from './cost.js';
import type { GiveUpEvent, RateLimitedEvent, RetryEvent, ThrottleEvent } from './events.js';
import { EventChannel } from './events.js';
import type { KeyStats, Ticket, Waiter } from './key-lane.js';
import { KeyLane } from './key-lane.js';
import type { ClientOptions, KeyOptions, ResolvedClientOptions } from './options.js';
import { keyOptionsFor, resolveClientOptions } from './options.js';
import type { Delay } from './pacer.js';
import type { RequestDescription } from './request.js';
import { isIdempotent } from './request.js';
import type { RetryReason } from './retry-policy.js';
import { isRetryable, retryReason } from './retry-policy.js';
import { SharedQuota } from './shared-quota.js';
import { statusOf, type Verdict, verdictOf } from './verdict.js';

/** How a face sends one attempt of a call, and what it does with an answer the engine drops. */
export interface Transport<A extends RateLimitResponse> {
  /** Sends one attempt; `signal` aborts it (the caller, the deadline or the attempt's timeout). */
  send(signal: AbortSignal | undefined): Promise<A>;
  /** Releases an answer that is not returned (it is retried, or an error is thrown instead). */
  discard(answer: A): void;
  /** The answer as a Fetch `Response`, for the errors that carry one. */
  response?(answer: A): Response | undefined;
  /**
   * Sends one attempt and reports its end to `attempt` as it happens, without a promise: a face
   * that can hold an answer at its head (the undici interceptor) then learns at once whether to
   * deliver it. Used for a call's first attempt when it may go at once; `send` for the others.
   */
  dispatch?(signal: AbortSignal | undefined, attempt: AttemptSink<A>): void;
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

/** The engine of one client: its options, its keys' lanes, its events. */
export class Engine {
  readonly options: ResolvedClientOptions;
  readonly #lanes = new Map<string, KeyLane>();
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
      // Keep recently used keys last (eviction drops idle keys from the front), once it matters.
      if (lanes.size >= MAX_KEYS) {
        lanes.delete(key);
        lanes.set(key, lane);
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
    lane = new KeyLane(key, keyOptions, resolved.clock, resolved.random, shared);
    lanes.set(key, lane);
    if (lanes.size > MAX_KEYS) {
      for (const [oldKey, old] of lanes) {
        if (lanes.size <= MAX_KEYS) break;
        if (old.idle) lanes.delete(oldKey);
      }
    }
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
    const key = resolved.key ? resolved.key(request) : (spec.origin ?? request.url.origin);
    const lane = this.#laneFor(key, request);
    return new EngineCall(resolved, this.#events, key, lane, spec, transport);
  }
}

/** The events of one engine. */
interface Channels {
  throttle: EventChannel<ThrottleEvent>;
  retry: EventChannel<RetryEvent>;
  rateLimited: EventChannel<RateLimitedEvent>;
  giveUp: EventChannel<GiveUpEvent>;
}

/**
 * One call through the engine: its loop and its decisions, as methods of one object rather than
 * closures made per call (the engine's per-call cost is part of what S4 measures).
 */
class EngineCall<A extends RateLimitResponse> implements Waiter, AttemptSink<A> {
  readonly #resolved: ResolvedClientOptions;
  readonly #events: Channels;
  readonly #key: string;
  readonly #lane: KeyLane;
  readonly #opts: KeyOptions;
  readonly #spec: CallSpec;
  readonly #transport: Transport<A>;
  readonly #cost: Costs | number;
  readonly #idempotent: boolean;
  readonly #call: CallContext;
  readonly #facts: CallFacts;
  /** The attempt sent with `dispatch`, and where the call's end goes (see {@link start}). */
  #ticket: Ticket | null = null;
  #attempt: Attempt | null = null;
  #sink: CallSink<A> | null = null;

  constructor(
    resolved: ResolvedClientOptions,
    events: Channels,
    key: string,
    lane: KeyLane,
    spec: CallSpec,
    transport: Transport<A>,
  ) {
    this.#resolved = resolved;
    this.#events = events;
    this.#key = key;
    this.#lane = lane;
    this.#opts = lane.options;
    this.#spec = spec;
    this.#transport = transport;
    const { burst } = this.#opts;
    // Without a `cost` option a call costs one request: a number, no object per call.
    this.#cost =
      resolved.cost || (burst !== undefined && burst < 1)
        ? normalizeCost(resolved.cost ? resolved.cost(spec.request) : 1, burst)
        : 1;
    this.#idempotent = isIdempotent(spec.request);
    // Last: the deadline's timer starts here, and `run()` always disposes of it.
    this.#call = new CallContext(key, resolved.clock, spec.signal, spec.deadlineMs ?? this.#opts.deadlineMs);
    this.#facts = this.#call.facts;
  }

  #asResponse(answer: A | undefined): Response | undefined {
    return answer === undefined ? undefined : this.#transport.response?.(answer);
  }

  /** Aborts the call's waits ({@link Waiter}): made only once the call has to wait. */
  get signal(): AbortSignal | undefined {
    return this.#call.signal;
  }

  /** The key's lane asks whether a wait is acceptable ({@link Waiter}). */
  checkWait({ ms, reason, window }: Delay): void {
    // A gate, or a server window that stays exhausted, beyond `maxRetryAfterMs`: fail fast.
    if ((reason === 'gate' || window !== null) && ms > this.#opts.maxRetryAfterMs && Number.isFinite(ms)) {
      throw new RateLimitedError(this.#facts, this.#resolved.clock.wallNow() + ms, ms, undefined, window);
    }
    this.#call.checkWait(ms);
    // A wait for the next answer has no length to report: only timed waits are events.
    const throttle = this.#events.throttle;
    if (throttle.active && Number.isFinite(ms)) throttle.emit({ key: this.#key, waitMs: ms, reason });
  }

  #giveUp(status: number | null, reason: GiveUpEvent['reason']): void {
    const giveUp = this.#events.giveUp;
    if (giveUp.active) giveUp.emit({ key: this.#key, attempts: this.#facts.attempts, status, reason });
  }

  /**
   * Decides whether to retry. Returns the delay before the retry, or null to stop (the caller
   * settles with what it has); throws when stopping must be an error.
   */
  #planRetry(verdict: Verdict, signal: RateLimitSignal | null, answer: A | undefined): number | null {
    const opts = this.#opts;
    const facts = this.#facts;
    const status = statusOf(verdict);
    const reason: RetryReason = retryReason(verdict, this.#idempotent, this.#spec.replayable);
    if (!isRetryable(reason)) {
      if (reason !== 'not-retryable') this.#giveUp(status, reason);
      return null;
    }
    const hint = signal?.retryAfterMs ?? null;
    if (hint !== null && hint > opts.maxRetryAfterMs) {
      this.#giveUp(status, 'retry-after-too-long');
      throw new RateLimitedError(
        facts,
        this.#resolved.clock.wallNow() + hint,
        hint,
        this.#asResponse(answer),
      );
    }
    if (facts.attempts > opts.retries) {
      this.#giveUp(status, 'retries-exhausted');
      return null;
    }
    if (!this.#lane.budget.withdraw()) {
      this.#giveUp(status, 'budget-exhausted');
      if (opts.onBudgetExhausted === 'throw') {
        throw new RetryBudgetExhaustedError(facts, this.#asResponse(answer));
      }
      return null;
    }
    // The server's hint is a floor, never jittered below; the key's gate enforces it for every call.
    const delay = hint ?? fullJitter(facts.attempts - 1, opts.backoff, this.#resolved.random);
    this.#call.checkWait(delay);
    const retry = this.#events.retry;
    if (retry.active) retry.emit({ key: this.#key, attempt: facts.attempts, status, delayMs: delay, reason });
    // With a hint, the gate holds the retry (and every call of the key): no sleep of its own.
    return hint === null ? delay : 0;
  }

  /** The retry's own backoff, abortable, counted as waiting. */
  async #backOff(delay: number): Promise<void> {
    if (delay <= 0) return;
    const clock = this.#resolved.clock;
    const started = clock.now();
    try {
      await clock.sleep(delay, this.#call.signal);
    } catch {
      throw this.#call.abortReason();
    }
    this.#facts.waitedMs += clock.now() - started;
    this.#lane.addWait(clock.now() - started);
  }

  /** Runs the call to its end. */
  run(): Promise<A> {
    this.#lane.budget.deposit();
    return this.#loop(null, 0);
  }

  /**
   * Runs the call to its end, reporting to `sink`: a first attempt that may go at once goes with
   * the transport's `dispatch`, and its answer is decided when it arrives (see {@link answered}).
   */
  start(sink: CallSink<A>): void {
    const lane = this.#lane;
    lane.budget.deposit();
    const dispatch = this.#transport.dispatch;
    let granted: Ticket | Promise<Ticket> | null = null;
    try {
      if (dispatch) granted = lane.acquire(this.#cost, this.#spec.priority ?? 0, true, this);
    } catch (error) {
      this.#call.dispose();
      sink.fail(error);
      return;
    }
    if (!dispatch || granted === null || granted instanceof Promise) {
      this.#loop(granted, 0).then(
        (answer) => sink.deliver(answer),
        (error: unknown) => sink.fail(error),
      );
      return;
    }
    this.#sink = sink;
    this.#ticket = granted;
    this.#facts.attempts++;
    this.#attempt = this.#call.attemptSignal(this.#spec.timeoutMs ?? this.#opts.timeoutMs);
    dispatch.call(this.#transport, this.#attempt.signal, this);
  }

  /** The dispatched attempt's answer ({@link AttemptSink}): true when it is the call's to return. */
  answered(answer: A): boolean {
    const sink = this.#sink as CallSink<A>;
    (this.#attempt as Attempt).done();
    let delay: number | null;
    try {
      delay = this.#afterAnswer(this.#ticket as Ticket, answer);
    } catch (error) {
      this.#call.dispose();
      sink.fail(error);
      return false;
    }
    if (delay === null) {
      this.#call.dispose();
      return true;
    }
    this.#continue(delay, sink);
    return false;
  }

  /** The dispatched attempt ended without an answer ({@link AttemptSink}). */
  failed(error: unknown): void {
    const sink = this.#sink as CallSink<A>;
    const attempt = this.#attempt as Attempt;
    attempt.done();
    let delay: number;
    try {
      delay = this.#afterFailure(this.#ticket as Ticket, attempt, error);
    } catch (failure) {
      this.#call.dispose();
      sink.fail(failure);
      return;
    }
    this.#continue(delay, sink);
  }

  /**
   * Retries after `delay`, on the loop, reporting to `sink`. From a microtask: the face reported the
   * answer from inside its transport's callback, which the next attempt is not sent from.
   */
  #continue(delay: number, sink: CallSink<A>): void {
    Promise.resolve(delay)
      .then((ms) => this.#loop(null, ms))
      .then(
        (answer) => sink.deliver(answer),
        (error: unknown) => sink.fail(error),
      );
  }

  /**
   * The call's loop: a backoff of `delay` first, then attempts until one ends the call. `granted`
   * is the first attempt's ticket when it was acquired already.
   */
  async #loop(granted: Ticket | Promise<Ticket> | null, delay: number): Promise<A> {
    const { clock } = this.#resolved;
    const spec = this.#spec;
    const lane = this.#lane;
    const call = this.#call;
    const facts = this.#facts;
    const transport = this.#transport;
    const cost = this.#cost;
    const timeoutMs = spec.timeoutMs ?? this.#opts.timeoutMs;
    const priority = spec.priority ?? 0;
    let next: Ticket | Promise<Ticket> | null = granted;
    try {
      if (delay > 0) await this.#backOff(delay);
      for (;;) {
        // A call that may go now gets its ticket at once, without a promise.
        next ??= lane.acquire(cost, priority, facts.attempts === 0, this);
        let ticket: Ticket;
        if (next instanceof Promise) {
          const waitStart = clock.now();
          ticket = await next;
          facts.waitedMs += clock.now() - waitStart;
        } else ticket = next;
        next = null;
        facts.attempts++;
        const attempt = call.attemptSignal(timeoutMs);
        let answer: A | undefined;
        let failure: unknown;
        try {
          answer = await transport.send(attempt.signal);
        } catch (error) {
          failure = error;
        } finally {
          attempt.done();
        }
        const retryIn =
          answer === undefined
            ? this.#afterFailure(ticket, attempt, failure)
            : this.#afterAnswer(ticket, answer);
        if (retryIn === null) return answer as A;
        await this.#backOff(retryIn);
      }
    } finally {
      call.dispose();
    }
  }

  /**
   * An attempt ended without an answer: the lane learns it; returns the delay before the retry, or
   * throws the error the call ends with.
   */
  #afterFailure(ticket: Ticket, attempt: Attempt, failure: unknown): number {
    const call = this.#call;
    const facts = this.#facts;
    const aborted = call.signal?.aborted === true;
    const verdict = verdictOf({ kind: aborted ? 'aborted' : 'network' });
    this.#lane.settle(ticket, verdict, null);
    if (aborted) throw call.abortReason();
    call.recordStatus(null);
    const timeoutMs = this.#spec.timeoutMs ?? this.#opts.timeoutMs;
    const error = attempt.timedOut() ? new TimeoutError(facts, timeoutMs as number) : failure;
    const delay = this.#planRetry(verdict, null, undefined);
    if (delay === null) throw error;
    return delay;
  }

  /**
   * An answer arrived: the lane learns from it; returns `null` when it is the call's to return, else
   * the delay before the retry (the answer is released). Throws (the answer released) when the call
   * ends with an error.
   */
  #afterAnswer(ticket: Ticket, answer: A): number | null {
    const resolved = this.#resolved;
    const lane = this.#lane;
    const transport = this.#transport;
    const signal = readRateLimit(answer, { receivedAt: resolved.clock.wallNow() });
    const verdict = verdictOf({ kind: 'response', status: answer.status, signal });
    this.#call.recordStatus(answer.status);
    lane.settle(ticket, verdict, signal);
    const rateLimited = this.#events.rateLimited;
    if (verdict.kind === 'limited' && rateLimited.active) {
      rateLimited.emit({
        key: this.#key,
        status: answer.status,
        retryAfterMs: verdict.retryAfterMs,
        signal,
      });
    }
    let delay: number | null;
    try {
      delay = this.#planRetry(verdict, signal, answer);
    } catch (error) {
      transport.discard(answer);
      throw error;
    }
    if (delay === null) {
      if (resolved.settleCost && verdict.kind === 'answered') {
        const response = this.#asResponse(answer);
        if (response?.ok)
          settleLater(resolved.settleCost, response, (costs) => lane.settleCost(ticket, costs));
      }
      return null;
    }
    // Released before the backoff, so its connection is not held while the retry waits.
    transport.discard(answer);
    return delay;
  }
}

/**
 * One call through the engine ({@link Engine} makes one per call): acquire a send from the key's
 * lane, one attempt through the face's transport, the answer's verdict, then retry inside the
 * budget or stop.
 */

import { fullJitter } from '../core/backoff.js';
import { defaultBurst } from '../core/limit.js';
import { invalidOption } from '../core/validate.js';
import type { CallFacts } from '../errors.js';
import { InvalidOptionError, RateLimitedError, RetryBudgetExhaustedError, TimeoutError } from '../errors.js';
import type { RateLimitResponse } from '../signals/read-rate-limit.js';
import { readRateLimit } from '../signals/read-rate-limit.js';
import type { RateLimitSignal } from '../signals/signal.js';
import { type Attempt, CallContext } from './call-context.js';
import { type Costs, normalizeCost, settleLater } from './cost.js';
import type { AttemptSink, CallSink, CallSpec, Channels, Transport } from './engine.js';
import type { GiveUpEvent } from './events.js';
import type { KeyLane, Ticket, Waiter } from './key-lane.js';
import type { KeyOptions, ResolvedClientOptions } from './options.js';
import type { Delay } from './pacer.js';
import { isIdempotent } from './request.js';
import type { RetryReason } from './retry-policy.js';
import { isRetryable, retryReason } from './retry-policy.js';
import { isEventStream } from './streamed-answer.js';
import { statusOf, type Verdict, verdictOf } from './verdict.js';

/**
 * One call through the engine: its loop and its decisions, as methods of one object rather than
 * closures made per call (the engine's per-call cost is part of what S4 measures).
 */
export class EngineCall<A extends RateLimitResponse> implements Waiter, AttemptSink<A> {
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
  /** A retry the budget paid for and not sent yet: given back if the call ends first. */
  #retryOwed = false;

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
    // The bucket a cost must fit: the configured burst, or its default beside a configured rate.
    const { rate } = this.#opts;
    const burst = this.#opts.burst ?? (rate === undefined ? undefined : defaultBurst(rate));
    // Without a `cost` option a call costs one request: a number, no object per call.
    this.#cost =
      resolved.cost || (burst !== undefined && burst < 1)
        ? normalizeCost(resolved.cost ? resolved.cost(spec.request) : 1, burst)
        : 1;
    this.#idempotent = isIdempotent(spec.request);
    // Last: the deadline's timer starts here, and `run()` always disposes of it.
    this.#call = new CallContext(key, resolved.clock, spec.signal, spec.deadlineMs ?? this.#opts.deadlineMs);
    this.#facts = this.#call.facts;
    // Ended by `#end`, on every path: the key is not forgotten while the call is under way.
    lane.callStarted();
  }

  /** The call ended: its timers go, the key counts it ended, and a retry not sent is refunded. */
  #end(): void {
    this.#call.dispose();
    if (this.#retryOwed) this.#lane.budget.refund();
    this.#lane.callEnded();
  }

  /**
   * The answer the call returns. An event stream, on a key with a `maxConcurrent`, holds its place
   * until its body ends (see `streamed-answer.ts`): the one place that decides it.
   */
  #returning(answer: A): A {
    const untilBodyEnd = this.#transport.untilBodyEnd;
    const lane = this.#lane;
    if (untilBodyEnd === undefined || !lane.boundsStreams || !isEventStream(answer.headers)) return answer;
    return untilBodyEnd.call(this.#transport, answer, lane.openStream());
  }

  #asResponse(answer: A | undefined): Response | undefined {
    return answer === undefined ? undefined : this.#transport.response?.(answer);
  }

  /** Aborts the call's waits ({@link Waiter}): made only once the call has to wait. */
  get signal(): AbortSignal | undefined {
    return this.#call.signal;
  }

  /** The key's lane asks whether a wait is acceptable ({@link Waiter}). */
  checkWait({ ms, reason, window, askedMs = ms }: Delay, repeat = false): void {
    // A gate, or a server window that stays exhausted, beyond `maxRetryAfterMs`: fail fast. A
    // gate is judged by what the server asked, not the spread the gate adds to it.
    if (
      (reason === 'gate' || window !== null) &&
      askedMs > this.#opts.maxRetryAfterMs &&
      Number.isFinite(askedMs)
    ) {
      // The wait the server asked for, not the gate's spread on top of it.
      throw new RateLimitedError(
        this.#facts,
        this.#resolved.clock.wallNow() + askedMs,
        askedMs,
        undefined,
        window,
      );
    }
    this.#call.checkWait(ms);
    // A wait for the next answer has no length to report: only timed waits are events.
    const throttle = this.#events.throttle;
    if (!repeat && throttle.active && Number.isFinite(ms))
      throttle.emit({ key: this.#key, waitMs: ms, reason });
  }

  #giveUp(status: number | null, reason: GiveUpEvent['reason']): void {
    const giveUp = this.#events.giveUp;
    if (giveUp.active) giveUp.emit({ key: this.#key, attempts: this.#facts.attempts, status, reason });
  }

  /**
   * Decides whether to retry. Returns the delay before the retry, or null to stop (the caller
   * settles with what it has); throws when stopping must be an error.
   */
  #planRetry(
    verdict: Verdict,
    signal: RateLimitSignal | null,
    answer: A | undefined,
    failure?: unknown,
  ): number | null {
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
    // The server's hint is a floor, never jittered below. Checked against the deadline before the
    // budget pays for it: a retry the deadline stops is neither sent nor counted.
    const delay = hint ?? fullJitter(facts.attempts - 1, opts.backoff, this.#resolved.random);
    // The key's pacer (its gate, closed by this answer: an outage, a refused probe's doubled hold)
    // holds the retry longer than its own delay at times: what it will wait, reported and judged.
    const wait = Math.max(delay, this.#lane.waitMs(this.#cost));
    this.#call.checkWait(wait);
    if (!this.#lane.budget.withdraw()) {
      this.#giveUp(status, 'budget-exhausted');
      if (opts.onBudgetExhausted === 'throw') {
        throw new RetryBudgetExhaustedError(facts, this.#asResponse(answer), failure);
      }
      return null;
    }
    this.#retryOwed = true;
    const retry = this.#events.retry;
    if (retry.active) retry.emit({ key: this.#key, attempt: facts.attempts, status, delayMs: wait, reason });
    // A rate limit's hint closed the key's gate, which holds the retry (and every call of the
    // key): no sleep of its own. A hint on any other answer (a 500, a 408) the retry waits itself.
    return hint !== null && verdict.kind === 'limited' ? 0 : delay;
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
    } finally {
      // Also when the backoff ends in an abort: the call waited all the same.
      const waited = clock.now() - started;
      this.#facts.waitedMs += waited;
      this.#lane.addWait(waited);
    }
  }

  /**
   * Runs the call to its end (its first `acquire` earns the key's retry budget its credit). A call
   * aborted before it began ends at once, as `fetch` ends it: nothing booked, nothing sent.
   */
  run(): Promise<A> {
    if (this.#call.abortedBefore) {
      this.#end();
      return Promise.reject(this.#call.abortReason());
    }
    return this.#loop(null, 0);
  }

  /**
   * Runs the call to its end, reporting to `sink`: a first attempt that may go at once goes with
   * the transport's `dispatch`, and its answer is decided when it arrives (see {@link answered}).
   */
  start(sink: CallSink<A>): void {
    const lane = this.#lane;
    const dispatch = this.#transport.dispatch;
    let granted: Ticket | Promise<Ticket> | null = null;
    try {
      if (dispatch) granted = lane.acquire(this.#cost, this.#spec.priority ?? 0, true, this);
    } catch (error) {
      this.#end();
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
      this.#end();
      sink.fail(error);
      return false;
    }
    if (delay === null) {
      this.#returning(answer);
      this.#end();
      return true;
    }
    this.#continue(delay, sink, answer);
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
      this.#end();
      sink.fail(failure);
      return;
    }
    this.#continue(delay, sink);
  }

  /**
   * Retries after `delay`, on the loop, reporting to `sink`. From a microtask: the face reported the
   * answer from inside its transport's callback, which the next attempt is not sent from.
   */
  #continue(delay: number, sink: CallSink<A>, held?: A): void {
    Promise.resolve(delay)
      .then((ms) => this.#loop(null, ms, held))
      .then(
        (answer) => sink.deliver(answer),
        (error: unknown) => sink.fail(error),
      );
  }

  /**
   * The call's loop: a backoff of `delay` first, then attempts until one ends the call. `granted`
   * is the first attempt's ticket when it was acquired already; `held`, the answer whose retry this
   * is (see {@link #retryStopped}).
   */
  async #loop(granted: Ticket | Promise<Ticket> | null, delay: number, held?: A): Promise<A> {
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
    /** The last answer, kept until its retry leaves: the call's to return if the retry never does. */
    let last: A | undefined = held;
    try {
      if (delay > 0) await this.#backOff(delay);
      for (;;) {
        let ticket: Ticket;
        try {
          // A call that may go now gets its ticket at once, without a promise.
          next ??= lane.acquire(cost, priority, facts.attempts === 0, this);
          if (next instanceof Promise) {
            const waitStart = clock.now();
            try {
              ticket = await next;
            } finally {
              // Also when the turn ends in an error: the call waited all the same.
              facts.waitedMs += clock.now() - waitStart;
            }
          } else ticket = next;
        } catch (error) {
          if (last !== undefined && this.#retryStopped(error, last)) return this.#returning(last);
          throw error;
        }
        next = null;
        if (last !== undefined) {
          // Its retry leaves: the answer it replaces is released.
          transport.discard(last);
          last = undefined;
        }
        facts.attempts++;
        if (this.#retryOwed) {
          this.#retryOwed = false;
          lane.budget.retrySent();
        }
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
        // A transport that resolved with no answer (a mock without an implementation) is a bug
        // in the caller's `fetch` option, not an outage of the server.
        if (failure === undefined && typeof answer?.status !== 'number') {
          failure = invalidOption('fetch', 'a function that resolves with a Response', answer);
          answer = undefined;
        }
        const retryIn =
          answer === undefined
            ? this.#afterFailure(ticket, attempt, failure)
            : this.#afterAnswer(ticket, answer);
        if (retryIn === null) return this.#returning(answer as A);
        last = answer;
        await this.#backOff(retryIn);
      }
    } catch (error) {
      if (last !== undefined) transport.discard(last);
      throw error;
    } finally {
      this.#end();
    }
  }

  /**
   * The retry of `last` cannot leave: the key's gate or window asks for a wait beyond
   * `maxRetryAfterMs` (closed by another call meanwhile). The call then ends with `last`, the answer
   * it got, as when retries are spent. Any other error (a deadline, an abort) ends it as it is.
   */
  #retryStopped(error: unknown, last: A): boolean {
    if (!(error instanceof RateLimitedError)) return false;
    this.#giveUp(last.status, 'retry-after-too-long');
    return true;
  }

  /**
   * An attempt ended without an answer: the lane learns it; returns the delay before the retry, or
   * throws the error the call ends with.
   */
  #afterFailure(ticket: Ticket, attempt: Attempt, failure: unknown): number {
    const call = this.#call;
    const facts = this.#facts;
    const aborted = call.signal?.aborted === true;
    if (!aborted && this.#transport.refused?.(failure)) {
      // Never sent: the call ends with the transport's own error, as with plain `fetch`.
      this.#lane.cancel(ticket);
      throw failure;
    }
    // The caller's doing (an abort, a body that failed, an answer fetch will not follow): no outage.
    const callers =
      aborted || failure instanceof InvalidOptionError || this.#transport.notServerFault?.(failure) === true;
    const verdict = verdictOf({ kind: callers ? 'aborted' : 'network' });
    this.#lane.settle(ticket, verdict, null);
    if (aborted) throw call.abortReason();
    if (callers) throw failure;
    call.recordStatus(null);
    const timeoutMs = this.#spec.timeoutMs ?? this.#opts.timeoutMs;
    const error = attempt.timedOut() ? new TimeoutError(facts, timeoutMs as number) : failure;
    const delay = this.#planRetry(verdict, null, undefined, error);
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
      // An error that carries the answer hands it over unread (its body is the caller's to read).
      if ((error as { response?: unknown }).response === undefined) transport.discard(answer);
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
    // Kept by the loop until the retry leaves (the call's to return if it never does).
    return delay;
  }
}

/**
 * `createFetch()`: a drop-in `fetch` that paces each key, obeys the server's signals and retries
 * only what is safe, inside a retry budget. The engine is this loop; per-key state lives in
 * {@link KeyLane}, the pacing arithmetic in {@link Pacer}.
 */

import { fullJitter } from '../core/backoff.js';
import { defaultBurst } from '../core/token-bucket.js';
import { RateLimitedError, RetryBudgetExhaustedError, TimeoutError } from '../errors.js';
import { readRateLimit } from '../signals/read-rate-limit.js';
import type { RateLimitSignal } from '../signals/signal.js';
import { CallContext } from './call-context.js';
import { normalizeCost, settleLater } from './cost.js';
import type { GiveUpEvent, RateLimitedEvent, RetryEvent, ThrottleEvent } from './events.js';
import { EventChannel } from './events.js';
import type { KeyStats, WaitCheck } from './key-lane.js';
import { KeyLane } from './key-lane.js';
import type { ClientOptions, FetchLike, HeadwayInit } from './options.js';
import { keyOptionsFor, resolveClientOptions } from './options.js';
import { describeRequest, isIdempotent, isReplayable } from './request.js';
import type { RetryReason } from './retry-policy.js';
import { isRetryable, retryReason } from './retry-policy.js';
import { SharedQuota } from './shared-quota.js';
import { statusOf, type Verdict, verdictOf } from './verdict.js';

/** The function `createFetch` returns: `fetch`'s signature, plus events and stats. */
export interface HeadwayFetch {
  (input: RequestInfo | URL, init?: HeadwayInit): Promise<Response>;
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

/** Creates a cooperative `fetch`. Options are validated here, not at the first call. */
export function createFetch(options: ClientOptions = {}): HeadwayFetch {
  const resolved = resolveClientOptions(options);
  const { clock, random } = resolved;
  const lanes = new Map<string, KeyLane>();
  const events = {
    throttle: new EventChannel<ThrottleEvent>(),
    retry: new EventChannel<RetryEvent>(),
    rateLimited: new EventChannel<RateLimitedEvent>(),
    giveUp: new EventChannel<GiveUpEvent>(),
  };

  const laneFor = (key: string): KeyLane => {
    let lane = lanes.get(key);
    if (lane) {
      // Keep recently used keys last (eviction drops idle keys from the front), once it matters.
      if (lanes.size >= MAX_KEYS) {
        lanes.delete(key);
        lanes.set(key, lane);
      }
      return lane;
    }
    const keyOptions = keyOptionsFor(resolved, key);
    const shared =
      resolved.store && keyOptions.rate !== undefined
        ? new SharedQuota(
            resolved.store,
            key,
            keyOptions.rate,
            keyOptions.burst ?? defaultBurst(keyOptions.rate),
            keyOptions.expectedWorkers,
            clock,
          )
        : undefined;
    lane = new KeyLane(key, keyOptions, clock, random, shared);
    lanes.set(key, lane);
    if (lanes.size > MAX_KEYS) {
      for (const [oldKey, old] of lanes) {
        if (lanes.size <= MAX_KEYS) break;
        const s = old.stats();
        if (s.inFlight === 0 && s.queued === 0 && s.gate.open) lanes.delete(oldKey);
      }
    }
    return lane;
  };

  const transport = (): FetchLike => resolved.fetch ?? globalThis.fetch;

  const headwayFetch = async (input: RequestInfo | URL, init?: HeadwayInit): Promise<Response> => {
    const request = describeRequest(input, init);
    const key = resolved.key ? resolved.key(request) : request.url.origin;
    const lane = laneFor(key);
    const opts = lane.options;
    const cost = normalizeCost(resolved.cost ? resolved.cost(request) : 1, opts.burst);
    const idempotent = isIdempotent(request);
    const replayable = isReplayable(input, init);
    const call = new CallContext(key, clock, init?.signal, init?.deadlineMs ?? opts.deadlineMs);
    const timeoutMs = init?.timeoutMs ?? opts.timeoutMs;
    const priority = init?.queuePriority ?? 0;
    const facts = call.facts;

    const check: WaitCheck = ({ ms, reason, window }) => {
      // A gate, or a server window that stays exhausted, beyond `maxRetryAfterMs`: fail fast.
      if ((reason === 'gate' || window !== null) && ms > opts.maxRetryAfterMs && Number.isFinite(ms)) {
        throw new RateLimitedError(facts, clock.wallNow() + ms, ms, undefined, window);
      }
      call.checkWait(ms);
      // A wait for the next answer has no length to report: only timed waits are events.
      if (events.throttle.active && Number.isFinite(ms)) events.throttle.emit({ key, waitMs: ms, reason });
    };
    const giveUp = (status: number | null, reason: GiveUpEvent['reason']) => {
      if (events.giveUp.active) events.giveUp.emit({ key, attempts: facts.attempts, status, reason });
    };

    lane.deposit();
    try {
      for (;;) {
        const waitStart = clock.now();
        const ticket = await lane.acquire(cost, priority, facts.attempts === 0, call.signal, check);
        facts.waitedMs += clock.now() - waitStart;
        facts.attempts++;
        const attempt = call.attemptSignal(timeoutMs);
        let response: Response | undefined;
        let failure: unknown;
        try {
          const attemptInit = attempt.signal ? { ...init, signal: attempt.signal } : init;
          response = await transport()(input, attemptInit);
        } catch (error) {
          failure = error;
        } finally {
          attempt.done();
        }

        if (!response) {
          const aborted = call.signal?.aborted === true;
          const verdict = verdictOf({ kind: aborted ? 'aborted' : 'network' });
          lane.settle(ticket, verdict, null);
          if (aborted) throw call.abortReason();
          facts.statuses.push(null);
          const error = attempt.timedOut() ? new TimeoutError(facts, timeoutMs as number) : failure;
          if ((await planRetry(verdict, null, undefined)) === null) throw error;
          continue;
        }

        const signal = readRateLimit(response, { receivedAt: clock.wallNow() });
        const verdict = verdictOf({ kind: 'response', status: response.status, signal });
        facts.statuses.push(response.status);
        lane.settle(ticket, verdict, signal);
        if (verdict.kind === 'limited' && events.rateLimited.active) {
          events.rateLimited.emit({
            key,
            status: response.status,
            retryAfterMs: verdict.retryAfterMs,
            signal,
          });
        }
        if ((await planRetry(verdict, signal, response)) === null) {
          if (resolved.settleCost && verdict.kind === 'answered' && response.ok)
            settleLater(resolved.settleCost, response, (costs) => lane.settleCost(ticket, costs));
          return response;
        }
        void response.body?.cancel().catch(() => {});
      }
    } finally {
      call.dispose();
    }

    /**
     * Decides whether to retry, and waits the retry's own delay. Returns null to stop (the caller
     * settles with what it has); throws when stopping must be an error.
     */
    async function planRetry(
      verdict: Verdict,
      signal: RateLimitSignal | null,
      response: Response | undefined,
    ): Promise<number | null> {
      const status = statusOf(verdict);
      const reason: RetryReason = retryReason(verdict, idempotent, replayable);
      if (!isRetryable(reason)) {
        if (reason !== 'not-retryable') giveUp(status, reason);
        return null;
      }
      const hint = signal?.retryAfterMs ?? null;
      if (hint !== null && hint > opts.maxRetryAfterMs) {
        giveUp(status, 'retry-after-too-long');
        void response?.body?.cancel().catch(() => {});
        throw new RateLimitedError(facts, clock.wallNow() + hint, hint, response);
      }
      if (facts.attempts > opts.retries) {
        giveUp(status, 'retries-exhausted');
        return null;
      }
      if (!lane.withdraw()) {
        giveUp(status, 'budget-exhausted');
        if (opts.onBudgetExhausted === 'throw') {
          void response?.body?.cancel().catch(() => {});
          throw new RetryBudgetExhaustedError(facts, response);
        }
        return null;
      }
      // The server's hint is a floor, never jittered below; the key's gate enforces it for every call.
      const delay = hint ?? fullJitter(facts.attempts - 1, opts.backoff, random);
      call.checkWait(delay);
      if (events.retry.active) {
        events.retry.emit({ key, attempt: facts.attempts, status, delayMs: delay, reason });
      }
      if (hint === null && delay > 0) {
        const started = clock.now();
        try {
          await clock.sleep(delay, call.signal);
        } catch {
          throw call.abortReason();
        }
        facts.waitedMs += clock.now() - started;
        lane.addWait(clock.now() - started);
      }
      return delay;
    }
  };

  return Object.assign(headwayFetch, {
    onThrottle: events.throttle.subscribe,
    onRetry: events.retry.subscribe,
    onRateLimited: events.rateLimited.subscribe,
    onGiveUp: events.giveUp.subscribe,
    stats: () => [...lanes.values()].map((lane) => lane.stats()),
  });
}

/**
 * The pacer of one key: the one place that answers "when may the next unit go". It owns the
 * key's gate, what is in flight, the outage probe and the server models, and learns from every
 * attempt's {@link Verdict}.
 *
 * - **Gate** ({@link Gate}): closed by a retry hint or an outage backoff; every call waits.
 * - **Outage**: after a 5xx or a network error, one probe at a time tests the server while the
 *   other calls wait; the first answer ends the outage.
 * - **In flight**: at most `maxInFlight` calls; before anything is known about the server, a small
 *   window of calls (halved by a refusal, grown by an answer) so a first burst cannot drain it.
 * - **Concurrency** ({@link ./models/concurrency.ts}): a cap on the calls in flight learned from
 *   refusals that came while others were in flight, and a gradual reopening after a retry hint.
 * - **Models** ({@link ./models/index.ts}): one track per window the server reports with counters
 *   (per second, per minute, a daily cap: the binding one decides), or the no-counters model when
 *   it reports none. A configured `rate`/`burst` is a bucket of its own that bounds the rate from
 *   above and follows the server's `remaining` downwards; the server's tracks still govern a
 *   configured key once its counters contradict a bucket (a window).
 */
import type { BackoffOptions, Random } from '../core/backoff.js';
import { exponentialCeiling } from '../core/backoff.js';
import { pacingWindow } from '../signals/read-rate-limit.js';
import type { RateLimitPolicy, RateLimitSignal } from '../signals/signal.js';
import { Gate, type GateReason } from './gate.js';
import { type BucketModelState, bucketModel, newBucket } from './models/bucket.js';
import type { ConcurrencyModelState } from './models/concurrency.js';
import {
  concurrencyModel,
  newConcurrency,
  newNoCounters,
  newTrack,
  noCountersModel,
  type Track,
  trackDelay,
  trackGovernsConfigured,
  trackObserve,
  trackSent,
  trackSnapshot,
} from './models/index.js';
import type { ModelSnapshot, Observation } from './models/model.js';
import type { NoCountersModelState } from './models/no-counters.js';
import type { Verdict } from './verdict.js';

/** Why a call is held. */
export type HoldReason = 'pacing' | 'gate' | 'outage';

/** When the next unit may go, and why not now. */
export interface Delay {
  ms: number;
  reason: HoldReason;
  /** The call may go as the one probe of an outage. */
  probe: boolean;
  /** The server's window that binds, when one does (its `name`). */
  window: string | null;
}

/** Permission to send one attempt. */
export interface Ticket {
  /** Cumulative units sent up to and including this one. */
  mark: number;
  cost: number;
  /** This attempt is the one probe of an outage. */
  probe: boolean;
  /** ms until units booked in a shared bucket are due (0 without a store). */
  dueInMs: number;
  /** When the attempt leaves: granted, plus `dueInMs`. */
  sentAt: number;
}

/** What {@link Pacer} needs to know about its key. */
export interface PacerOptions {
  /** A configured rate (units/s); unset = learn it. */
  rate: number | undefined;
  burst: number | undefined;
  /** Most calls in flight at once. */
  maxInFlight: number;
  /** False when a shared quota paces the key: the pacer then only gates and counts. */
  paced: boolean;
  /** Space a window's quota evenly over the window instead of spending it at once. */
  spread: boolean;
  backoff: BackoffOptions;
}

/** What the pacer knows, for `stats()`. */
export type PacerSnapshot = ModelSnapshot;

/** Calls allowed in flight before the first answer tells anything about the server. */
const INITIAL_WINDOW = 4;
const GO: Delay = { ms: 0, reason: 'pacing', probe: false, window: null };
const WAIT_FOR_ANSWER: Delay = { ms: Number.POSITIVE_INFINITY, reason: 'pacing', probe: false, window: null };

/** The rate (units/s) the server states for `window`, from its own policy or one beside it. */
function statedRate(window: RateLimitPolicy, signal: RateLimitSignal): number | null {
  if (window.quota !== null && window.windowMs) return (window.quota * 1000) / window.windowMs;
  if (signal.dialect !== 'draft-6' && signal.dialect !== 'draft-7') return null;
  // The old drafts list the quota policies beside the counters: `RateLimit-Policy: 200;w=1`.
  const beside = signal.policies.find(
    (p) => p !== window && p.unit === window.unit && p.remaining === null && p.quota !== null && p.windowMs,
  );
  return beside ? ((beside.quota as number) * 1000) / (beside.windowMs as number) : null;
}

/** The windows of a signal that a track follows: request windows with counters. */
function countedWindows(signal: RateLimitSignal): RateLimitPolicy[] {
  return signal.policies.filter((p) => p.remaining !== null && p.unit === 'requests');
}

const trackId = (window: RateLimitPolicy) => `${window.unit}:${window.name}`;

/** One key's pacing state. Times are monotonic ms. */
export class Pacer {
  readonly #options: PacerOptions;
  readonly gate: Gate;
  readonly #random: Random;
  #inFlight = 0;
  #inFlightUnits = 0;
  #sent = 0;
  #outageFailures = 0;
  #probing = false;
  #window = INITIAL_WINDOW;
  /** The configured bucket, when `rate` is set. */
  #configured: BucketModelState | null;
  #tracks: Track[] = [];
  /** The no-counters model; never for a configured key (its bucket already paces it). */
  #noCounters: NoCountersModelState | null;
  /** What the server's refusals said about calls in flight (counted in calls, not units). */
  #concurrency: ConcurrencyModelState = newConcurrency();

  constructor(options: PacerOptions, random: Random, now: number) {
    this.#options = options;
    this.#random = random;
    this.gate = new Gate(random);
    this.#configured = options.rate === undefined ? null : newBucket(options.rate, options.burst, now);
    this.#noCounters = options.rate === undefined ? newNoCounters(now) : null;
  }

  /** Calls sent and not answered yet. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** True while the server looks down (an outage the first answer ends). */
  get inOutage(): boolean {
    return this.#outageFailures > 0;
  }

  /** When `cost` more units may go, at `now`. */
  delay(cost: number, now: number): Delay {
    const gateMs = this.gate.waitMs(now);
    if (gateMs > 0) {
      const reason = this.gate.reason === 'outage' ? 'outage' : 'gate';
      return { ms: gateMs, reason, probe: false, window: null };
    }
    if (this.#outageFailures > 0) {
      if (this.#probing) return { ...WAIT_FOR_ANSWER, reason: 'outage' };
      return { ms: 0, reason: 'outage', probe: true, window: null };
    }
    if (this.#inFlight >= this.#options.maxInFlight) return WAIT_FOR_ANSWER;
    if (concurrencyModel.delay(this.#concurrency, 1, now, this.#inFlight) > 0) return WAIT_FOR_ANSWER;
    if (!this.#options.paced) return GO;
    if (this.#inFlight >= this.#window && !this.#known(now)) return WAIT_FOR_ANSWER;
    const units = this.#inFlightUnits;
    let ms = this.#configured ? bucketModel.delay(this.#configured, cost, now, units) : 0;
    let window: string | null = null;
    for (const track of this.#tracks) {
      if (this.#configured && !trackGovernsConfigured(track)) continue;
      const trackMs = trackDelay(track, cost, now, units);
      if (trackMs > ms) {
        ms = trackMs;
        window = track.id;
      }
    }
    if (this.#tracks.length === 0 && this.#noCounters)
      ms = Math.max(ms, noCountersModel.delay(this.#noCounters, cost, now, units));
    return ms > 0 ? { ms, reason: 'pacing', probe: false, window } : GO;
  }

  /** True once some model knows how many units may go. */
  #known(now: number): boolean {
    return this.snapshot(now).tokens !== null;
  }

  /** Books one attempt of `cost` units at `now`. */
  grant(cost: number, probe: boolean, dueInMs: number, now: number): Ticket {
    const before = this.#inFlightUnits;
    const mark = this.#sent + cost;
    this.#sent = mark;
    if (this.#configured) this.#configured = bucketModel.sent(this.#configured, cost, now, mark, before);
    this.#tracks = this.#tracks.map((t) => trackSent(t, cost, now, mark, before));
    // The no-counters model paces only a key whose server reports no window (see `delay`).
    if (this.#noCounters && this.#tracks.length === 0)
      this.#noCounters = noCountersModel.sent(this.#noCounters, cost, now, mark, before);
    this.#concurrency = concurrencyModel.sent(this.#concurrency, 1, now, mark, this.#inFlight);
    if (probe) this.#probing = true;
    this.#inFlight++;
    this.#inFlightUnits += cost;
    return { mark, cost, probe, dueInMs, sentAt: now + dueInMs };
  }

  /** Gives back a ticket that was never sent. */
  cancel(ticket: Ticket, now: number): void {
    this.#release(ticket, { kind: 'aborted' }, null, now);
  }

  /**
   * An attempt ended: learn from it, open or close the gate. Returns the gate to share (a retry
   * hint), if any. `signal` is `null` when there was no response.
   */
  settle(ticket: Ticket, verdict: Verdict, signal: RateLimitSignal | null, now: number): number | null {
    this.#release(ticket, verdict, signal, now);
    if (verdict.kind === 'limited') {
      this.#window = Math.max(1, Math.floor(this.#window / 2));
      if (verdict.retryAfterMs !== null) {
        this.gate.hold(verdict.retryAfterMs, 'retry-after', now);
        return verdict.retryAfterMs;
      }
    } else if (verdict.kind === 'outage') {
      this.#outageFailures++;
      const ceiling = exponentialCeiling(this.#outageFailures - 1, this.#options.backoff);
      this.gate.hold(ceiling / 2 + (this.#random() * ceiling) / 2, 'outage', now);
    } else if (verdict.kind === 'answered') {
      this.#outageFailures = 0;
      this.gate.endOutage(now);
      this.#window++;
    }
    return null;
  }

  #release(ticket: Ticket, verdict: Verdict, signal: RateLimitSignal | null, now: number): void {
    const before = this.#inFlightUnits;
    this.#inFlight--;
    this.#inFlightUnits = Math.max(0, before - ticket.cost);
    if (ticket.probe) this.#probing = false;
    const base = {
      at: now,
      sentAt: ticket.sentAt,
      mark: ticket.mark,
      cost: ticket.cost,
      inFlight: this.#inFlightUnits,
      inFlightBefore: before,
      outcome: verdict.kind === 'answered' || verdict.kind === 'limited' ? verdict.kind : 'failed',
      retryAfterMs: verdict.kind === 'limited' ? verdict.retryAfterMs : null,
      statedPolicy: signal?.dialect === 'ietf',
    } satisfies Omit<Observation, 'window' | 'statedRate'>;
    const observe = (window: RateLimitPolicy | undefined): Observation => ({
      ...base,
      window: window ?? null,
      statedRate: window && signal ? statedRate(window, signal) : null,
    });
    if (this.#configured) {
      this.#configured = bucketModel.observe(
        this.#configured,
        observe(signal ? pacingWindow(signal.policies) : undefined),
      );
    }
    const windows = signal ? countedWindows(signal) : [];
    for (const window of windows)
      if (!this.#tracks.some((t) => t.id === trackId(window)))
        this.#tracks.push(newTrack(trackId(window), now, { spread: this.#options.spread }));
    this.#tracks = this.#tracks.map((t) =>
      trackObserve(t, observe(windows.find((w) => trackId(w) === t.id))),
    );
    if (this.#noCounters && windows.length === 0)
      this.#noCounters = noCountersModel.observe(this.#noCounters, observe(undefined));
    // Counted in calls; an exhausted window (any unit) explains a refusal as the rate's.
    const exhausted = signal?.policies.find((p) => p.remaining === 0);
    this.#concurrency = concurrencyModel.observe(this.#concurrency, {
      ...observe(exhausted ?? (signal ? pacingWindow(signal.policies) : undefined)),
      cost: 1,
      inFlight: this.#inFlight,
      inFlightBefore: this.#inFlight + 1,
    });
  }

  /** The cap on calls in flight learned from the server's refusals, or `null` (none learned). */
  get inFlightCap(): number | null {
    return this.#concurrency.cap;
  }

  /** What the pacer knows: the binding model's figures. */
  snapshot(now: number): PacerSnapshot {
    const units = this.#inFlightUnits;
    let binding: PacerSnapshot | null = null;
    let bindingMs = -1;
    for (const track of this.#tracks) {
      if (this.#configured && !trackGovernsConfigured(track)) continue;
      const ms = trackDelay(track, 1, now, units);
      if (ms > bindingMs) {
        bindingMs = ms;
        binding = trackSnapshot(track, now, units);
      }
    }
    if (
      this.#configured &&
      (binding === null || bucketModel.delay(this.#configured, 1, now, units) >= bindingMs)
    )
      return bucketModel.snapshot(this.#configured, now, units);
    if (binding) return binding;
    if (this.#noCounters) return noCountersModel.snapshot(this.#noCounters, now, units);
    return { rate: null, burst: null, source: null, tokens: null };
  }

  /** The gate for `stats()`. */
  gateSnapshot(now: number): { open: boolean; openInMs: number; reason: GateReason | null } {
    const openInMs = this.gate.waitMs(now);
    const closed = openInMs > 0 || this.#outageFailures > 0;
    return { open: !closed, openInMs, reason: closed ? this.gate.reason : null };
  }
}

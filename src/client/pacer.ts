/**
 * The pacer of one key: the one place that answers "when may the next unit go". It owns the
 * key's gate, what is in flight, the outage probe and the server models, and learns from every
 * attempt's {@link Verdict}.
 *
 * - **Gate** ({@link Gate}): closed by a retry hint or an outage backoff; every call waits.
 * - **Outage**: after a 5xx or a network error, one probe at a time tests the server while the
 *   other calls wait; the first answer ends the outage.
 * - **In flight**: at most `maxInFlight` calls, and at most `maxConcurrent` counting the event
 *   streams still open (see {@link Pacer.streamOpened}); before anything is known about the server,
 *   a small window of calls (halved by a refusal, grown by an answer) so a first burst cannot drain it.
 * - **Concurrency** ({@link ./models/concurrency.ts}): a cap on the calls in flight learned from
 *   refusals that came while others were in flight, a gradual reopening after a retry hint, and a
 *   limit on the calls per period learned from refusals the window's counters do not explain.
 * - **Models** ({@link ./models/index.ts}): one track per window the server reports with counters
 *   (per second, per minute, a daily cap: the binding one decides), or the no-counters model when
 *   it reports none. A configured `rate`/`burst` is a bucket of its own that bounds the rate from
 *   above and follows the server's `remaining` downwards; the server's tracks still govern a
 *   configured key once its counters contradict a bucket (a window), and the window then replaces
 *   the bucket, bounded by the configured rate (its limit plus `rate × t` in any span `t`).
 * - **Costs** ({@link ./cost.ts}): a call costs units in every window, `requests` and `tokens`
 *   alike; a unit the call's cost leaves out costs what {@link LearnedCosts} has learned. Each
 *   window's track is booked, synced and asked in its own unit: a call leaves when all allow it.
 */
import type { BackoffOptions, Random } from '../core/backoff.js';
import { exponentialCeiling } from '../core/backoff.js';
import { pacingWindow } from '../signals/read-rate-limit.js';
import type { RateLimitPolicy, RateLimitSignal } from '../signals/signal.js';
import { type Costs, REQUESTS } from './cost.js';
import { Gate } from './gate.js';
import { LearnedCosts } from './learned-costs.js';
import { type BucketModelState, bucketModel, newBucket, refundSent } from './models/bucket.js';
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
  trackReplacesConfigured,
  trackSent,
  trackSnapshot,
} from './models/index.js';
import { hadRoomFor, type ModelSnapshot, type Observation } from './models/model.js';
import type { NoCountersModelState } from './models/no-counters.js';
import type { SharedBooking } from './shared-quota.js';
import type { KeyStats } from './stats.js';
import { UnitCounts } from './unit-counts.js';
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
  /**
   * Of a gate's `ms`, what the server's retry hints asked for, without the gate's own spread:
   * what `maxRetryAfterMs` is compared with. Unset: all of `ms`.
   */
  askedMs?: number;
}

/** Permission to send one attempt. */
export interface Ticket {
  /** Cumulative requests (cost units) sent up to and including this one. */
  mark: number;
  /** Requests (cost units) this attempt costs. */
  cost: number;
  /** Units booked in each unit: the stated cost, and what was learned for the units it left out. */
  costs: Costs;
  /** The cost as stated per unit (`null`: a number, every unit but requests learned). */
  stated: Costs | null;
  /** Cumulative units sent in each unit of `costs`, up to and including this one. */
  marks: Costs;
  /** This attempt is the one probe of an outage. */
  probe: boolean;
  /** ms until units booked in a shared bucket are due (0 without a store). */
  dueInMs: number;
  /** What the attempt booked in a shared quota, given back if it is never sent (`null`: nothing). */
  shared: SharedBooking | null;
  /** When the attempt leaves: granted, plus `dueInMs`. */
  sentAt: number;
}

/** What {@link Pacer} needs to know about its key. */
export interface PacerOptions {
  /** A configured rate (units/s); unset = learn it. */
  rate: number | undefined;
  burst: number | undefined;
  /** Most calls in flight at once: `maxConcurrent`, or less (a fleet's share). */
  maxInFlight: number;
  /** The key's `maxConcurrent`: the bound an open event stream holds a place of (see {@link Pacer.streamOpened}). */
  maxConcurrent: number;
  /** False when a shared quota paces the key: the pacer then only gates and counts. */
  paced: boolean;
  /** Space a window's quota evenly over the window instead of spending it at once. */
  spread: boolean;
  backoff: BackoffOptions;
}

/** What the pacer knows, for `stats()`: the binding window's figures, in its `unit`. */
export interface PacerSnapshot extends ModelSnapshot {
  /** The unit of `rate`, `burst` and `tokens`: `requests`, or the binding window's (`tokens`). */
  unit: string;
  /** What one call was learned to cost in each unit its cost leaves out (`{ tokens: 430 }`). */
  costs: Costs;
}

/** Calls allowed in flight before the first answer tells anything about the server. */
const INITIAL_WINDOW = 4;
/**
 * A refusal without counters, after answers without them for this long, from a key whose server
 * stated them, and the windows it stated are forgotten (see `Pacer#forgetTracks`). A refusal: the
 * windows no longer explain the server. Neither endpoints of the same origin that state no counters
 * (the windows still pace them, unrefused) nor a server that states its counters only on its
 * refusals (they come with the refusal) forget them.
 */
const COUNTERS_GONE_MS = 2000;
const GO: Delay = { ms: 0, reason: 'pacing', probe: false, window: null };
const WAIT_FOR_ANSWER: Delay = { ms: Number.POSITIVE_INFINITY, reason: 'pacing', probe: false, window: null };
/** An outage's one probe, free to go. */
const OUTAGE_PROBE: Delay = { ms: 0, reason: 'outage', probe: true, window: null };

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

const NO_POLICIES: readonly RateLimitPolicy[] = [];

/** A track, and the unit and name of the window it follows. */
interface UnitTrack {
  unit: string;
  name: string;
  track: Track;
  /** Scratch of `#release`: the window the answer being observed reported for this track, if any. */
  window: RateLimitPolicy | undefined;
}

const trackId = (window: RateLimitPolicy) => `${window.unit}:${window.name}`;
/**
 * The window a refusal of `ticket` is read against, counted in calls: a window (any unit) left
 * without room for the call — less than it cost there — explains the refusal as the rate's, and
 * in calls it has none left; else the window the client paces on.
 */
function refusalWindow(ticket: Ticket, policies: readonly RateLimitPolicy[]): RateLimitPolicy | undefined {
  for (const p of policies)
    if (p.remaining !== null && !hadRoomFor(p, ticket.costs[p.unit] ?? 0))
      return p.remaining === 0 ? p : { ...p, remaining: 0 };
  return pacingWindow(policies);
}

/** What a call of cost 1 books when every window counts requests: one object, never changed. */
const ONE_REQUEST: Costs = Object.freeze({ [REQUESTS]: 1 });

/** Cumulative units sent in each unit of `booked` once it is sent, after `sent`. */
function marksAfter(booked: Costs, sent: UnitCounts): Costs {
  // A literal for the one unit most calls book: no object grown key by key per call.
  if (booked === ONE_REQUEST) return { [REQUESTS]: (sent.get(REQUESTS) ?? 0) + 1 };
  const marks: Record<string, number> = {};
  for (const unit in booked) marks[unit] = (sent.get(unit) ?? 0) + (booked[unit] as number);
  return marks;
}

/** One key's pacing state. Times are monotonic ms. */
export class Pacer {
  #options: PacerOptions;
  readonly gate: Gate;
  readonly #random: Random;
  #inFlight = 0;
  /** Answers returned whose event stream is still open: they hold a place of `maxInFlight`. */
  #openStreams = 0;
  /** Attempts granted (and not given back). */
  #attempts = 0;
  /** Units in flight, per unit. */
  readonly #inFlightUnits = new UnitCounts();
  /** Calls in flight that booked units in each unit other than requests (see `Observation.unmarked`). */
  readonly #callsBooking = new UnitCounts();
  /** Cumulative units sent, per unit. */
  readonly #sent = new UnitCounts();
  /** Scratch: units in flight per unit before the ticket being released was (see `#release`; only its units are current). */
  readonly #releasedFrom = new UnitCounts();
  /**
   * Scratch: the observation each model is handed in turn, refilled per unit (see `#observe`). No
   * model keeps it (nor a reference to it) past its `observe`: one object serves every answer.
   */
  readonly #seen: Observation = {
    at: 0,
    sentAt: 0,
    mark: 0,
    cost: 0,
    inFlight: 0,
    inFlightBefore: 0,
    outcome: 'answered',
    retryAfterMs: null,
    statedPolicy: false,
    costStated: false,
    unmarked: 0,
    window: null,
    statedRate: null,
  };
  readonly #learned = new LearnedCosts();
  #outageFailures = 0;
  #probing = false;
  #window = INITIAL_WINDOW;
  /** The configured bucket, when `rate` is set. */
  #configured: BucketModelState | null;
  #tracks: UnitTrack[] = [];
  /** Every track counts requests (no window of another unit reported yet). */
  #requestsOnly = true;
  /** The no-counters model; never for a configured key (its bucket already paces it). */
  #noCounters: NoCountersModelState | null;
  /** When an answer last stated counters. */
  #lastCountersAt = Number.NEGATIVE_INFINITY;
  /** What the server's refusals said about calls in flight (counted in calls, not units). */
  #concurrency: ConcurrencyModelState = newConcurrency();

  constructor(options: PacerOptions, random: Random, now: number) {
    this.#options = options;
    this.#random = random;
    this.gate = new Gate(random);
    this.#configured = options.rate === undefined ? null : newBucket(options.rate, options.burst, now);
    this.#noCounters = options.rate === undefined ? newNoCounters(now) : null;
  }

  /**
   * From now on a shared quota paces the key (`shared`: the pacer only gates and counts), or no
   * longer does (the pacer paces every window again), with at most `maxInFlight` in flight.
   */
  sharePacing(shared: boolean, maxInFlight: number): void {
    this.#options = { ...this.#options, paced: !shared, maxInFlight };
  }

  /** Attempts sent (granted and not given back). */
  get sent(): number {
    return this.#attempts;
  }

  /** Calls sent and not answered yet. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * True when the key has a `maxConcurrent`: an answer returned as an event stream then holds its
   * place until its body ends. (A fleet's in-flight share bounds calls not answered yet, which
   * pile up at the server's bucket; a stream was counted there at its head.)
   */
  get boundsStreams(): boolean {
    return this.#options.maxConcurrent !== Number.POSITIVE_INFINITY;
  }

  /**
   * An answer was returned whose body streams on (Server-Sent Events): until {@link streamClosed},
   * it takes one place of `maxConcurrent`, as a call in flight does. The server models still count
   * the call answered at its head (what a server's refusals and counters describe).
   */
  streamOpened(): void {
    this.#openStreams++;
  }

  /** A stream {@link streamOpened} counted ended (its body ended, failed or was cancelled). */
  streamClosed(): void {
    this.#openStreams--;
  }

  /** True while the server looks down (an outage the first answer ends). */
  get inOutage(): boolean {
    return this.#outageFailures > 0;
  }

  /** The wait the gate alone asks of every call at `now`, or `null` while it is open. */
  gateDelay(now: number): Delay | null {
    const gateMs = this.gate.waitMs(now);
    if (gateMs <= 0) return null;
    if (this.gate.reason === 'outage') return { ms: gateMs, reason: 'outage', probe: false, window: null };
    return { ms: gateMs, reason: 'gate', probe: false, window: null, askedMs: this.gate.askedMs(now) };
  }

  /**
   * True when a fresh pacer would pace the key the same from `now` (so forgetting it changes
   * nothing): nothing in flight, nothing holds a call, a configured bucket is full, and no outage
   * or probe of a refusing server but a stale one (its gate open for a whole backoff cap,
   * `backoff.capMs`, and nothing sent since to test it: what it knew of the server is that old).
   */
  atRest(now: number): boolean {
    if (this.#inFlight > 0 || this.#openStreams > 0) return false;
    if (this.#outageFailures > 0 && now - this.gate.opensAt < this.#options.backoff.capMs) return false;
    const configured = this.#configured;
    if (configured && bucketModel.delay(configured, configured.burst ?? 1, now, 0) > 0) return false;
    // A server that answered only a refusal is tested by one probe before any other call goes: its
    // hold (and its probe) still stand, but never longer than a stale outage's.
    const noCounters = this.#noCounters;
    if (noCounters?.phase === 'probe' && now - noCounters.holdUntil < this.#options.backoff.capMs)
      return false;
    return this.delay(1, now).ms <= 0;
  }

  /** When a call of `cost` (requests, or units by name) may go, at `now`. */
  delay(cost: Costs | number, now: number): Delay {
    const gated = this.gateDelay(now);
    if (gated) return gated;
    if (this.#outageFailures > 0) {
      if (this.#probing) return { ...WAIT_FOR_ANSWER, reason: 'outage' };
      // The probe keeps to the rate as any call does: an outage is no licence to exceed it.
      const paced = this.#options.paced ? this.#paceDelay(cost, now) : GO;
      return paced.ms > 0 ? paced : OUTAGE_PROBE;
    }
    const options = this.#options;
    if (this.#inFlight >= options.maxInFlight || this.#inFlight + this.#openStreams >= options.maxConcurrent)
      return WAIT_FOR_ANSWER;
    const secondaryMs = concurrencyModel.delay(this.#concurrency, 1, now, this.#inFlight);
    if (secondaryMs === Number.POSITIVE_INFINITY) return WAIT_FOR_ANSWER;
    if (secondaryMs > 0) return { ms: secondaryMs, reason: 'pacing', probe: false, window: null };
    if (!this.#options.paced) return GO;
    if (this.#inFlight >= this.#window && !this.#known(now)) return WAIT_FOR_ANSWER;
    return this.#paceDelay(cost, now);
  }

  /** The rate's wait for a call of `cost`: the configured bucket, every governing window, the no-counters model. */
  #paceDelay(cost: Costs | number, now: number): Delay {
    const requests = this.#costIn(cost, REQUESTS);
    const units = this.#inFlightIn(REQUESTS);
    let ms = this.#configuredPaces() ? bucketModel.delay(this.#configured!, requests, now, units) : 0;
    let window: string | null = null;
    for (const { unit, track } of this.#tracks) {
      if (!this.#governs(unit, track)) continue;
      const trackMs = trackDelay(track, this.#costIn(cost, unit), now, this.#inFlightIn(unit));
      if (trackMs > ms) {
        ms = trackMs;
        window = track.id;
      }
    }
    if (this.#tracks.length === 0 && this.#noCounters) {
      const held = noCountersModel.delay(this.#noCounters, requests, now, units);
      // Its hold after refused probes is the server's hint scaled up (× 2ᵏ): a gate, judged against
      // `maxRetryAfterMs` as the hint itself is.
      if (this.#noCounters.phase === 'probe' && held > ms && Number.isFinite(held))
        return { ms: held, reason: 'gate', probe: false, window: null, askedMs: held };
      ms = Math.max(ms, held);
    }
    return ms > 0 ? { ms, reason: 'pacing', probe: false, window } : GO;
  }

  /** Units a call of `cost` (requests, or units by name) costs in `unit`: stated, else learned, else none known yet. */
  #costIn(cost: Costs | number, unit: string): number {
    if (typeof cost === 'number') {
      if (unit === REQUESTS) return cost;
      return (this.#learned.cost(unit) ?? 0) * cost;
    }
    if (cost[unit] !== undefined) return cost[unit];
    const requests = cost[REQUESTS] ?? 1;
    // Learned per request unit (a call of cost 2 counts twice in the sample's mark).
    return unit === REQUESTS ? requests : (this.#learned.cost(unit) ?? 0) * requests;
  }

  #inFlightIn(unit: string): number {
    return this.#inFlightUnits.get(unit) ?? 0;
  }

  /** A configured bucket paces requests itself: a request track governs it only once it contradicted a bucket. */
  #governs(unit: string, track: Track): boolean {
    return !this.#configured || unit !== REQUESTS || trackGovernsConfigured(track);
  }

  /**
   * The configured bucket paces requests, unless a request window governs and bounds itself by the
   * configured rate: then the server's word (a window's quota at once) wins.
   */
  #configuredPaces(): boolean {
    if (!this.#configured) return false;
    for (const { unit, track } of this.#tracks)
      if (unit === REQUESTS && trackReplacesConfigured(track)) return false;
    return true;
  }

  /** True once some model knows how many units may go. */
  #known(now: number): boolean {
    return this.snapshot(now).tokens !== null;
  }

  /** Books one attempt of `cost` (requests, or units by name) at `now`. */
  grant(cost: Costs | number, probe: boolean, dueInMs: number, now: number): Ticket {
    const booked = this.#booked(cost);
    const marks = marksAfter(booked, this.#sent);
    const requests = booked[REQUESTS] as number;
    const mark = marks[REQUESTS] as number;
    // The models see what was in flight before this send: they are told before the counts move.
    const requestsBefore = this.#inFlightIn(REQUESTS);
    if (this.#configured)
      this.#configured = bucketModel.sent(this.#configured, requests, now, mark, requestsBefore);
    // In place: the track entries are this pacer's own (a track's state itself stays immutable).
    for (const entry of this.#tracks) {
      const { unit } = entry;
      const units = booked[unit] as number;
      entry.track = trackSent(entry.track, units, now, marks[unit] as number, this.#inFlightIn(unit));
    }
    // The no-counters model paces only a key whose server reports no window (see `delay`).
    if (this.#noCounters && this.#tracks.length === 0)
      this.#noCounters = noCountersModel.sent(this.#noCounters, requests, now, mark, requestsBefore);
    this.#concurrency = concurrencyModel.sent(this.#concurrency, 1, now, mark, this.#inFlight);
    if (booked === ONE_REQUEST) {
      this.#sent.set(REQUESTS, mark);
      this.#inFlightUnits.set(REQUESTS, requestsBefore + 1);
    } else
      for (const unit in booked) {
        this.#sent.set(unit, marks[unit] as number);
        this.#inFlightUnits.set(unit, this.#inFlightIn(unit) + (booked[unit] as number));
        if (unit !== REQUESTS && (booked[unit] as number) > 0)
          this.#callsBooking.set(unit, (this.#callsBooking.get(unit) ?? 0) + 1);
      }
    if (probe) this.#probing = true;
    this.#inFlight++;
    this.#attempts++;
    return {
      mark,
      cost: requests,
      costs: booked,
      stated: typeof cost === 'number' ? null : cost,
      marks,
      probe,
      dueInMs,
      sentAt: now + dueInMs,
      shared: null,
    };
  }

  /** Units a call of `cost` books in each unit: the stated cost, and what was learned for every window's unit it leaves out. */
  #booked(cost: Costs | number): Costs {
    if (cost === 1 && this.#requestsOnly) return ONE_REQUEST;
    const booked: Record<string, number> =
      typeof cost === 'number' ? { [REQUESTS]: cost } : { ...cost, [REQUESTS]: this.#costIn(cost, REQUESTS) };
    for (const { unit } of this.#tracks) booked[unit] ??= this.#costIn(cost, unit);
    return booked;
  }

  /** The answer of `ticket` settled what it cost (its usage): a sample for the units learned. */
  settleCost(ticket: Ticket, costs: Costs): void {
    for (const [unit, units] of Object.entries(costs))
      if (unit !== REQUESTS) this.#learned.settle(unit, units / ticket.cost);
  }

  /** Gives back a ticket that was never sent: the configured bucket gets its units back. */
  cancel(ticket: Ticket, now: number): void {
    this.#attempts--;
    if (this.#configured) refundSent(this.#configured, ticket.cost);
    this.#release(ticket, { kind: 'aborted' }, null, now);
  }

  /**
   * An attempt ended: learn from it, open or close the gate. Returns the gate to share (a retry
   * hint), if any. `signal` is `null` when there was no response.
   */
  settle(ticket: Ticket, verdict: Verdict, signal: RateLimitSignal | null, now: number): number | null {
    this.#release(ticket, verdict, signal, now);
    if (verdict.kind === 'limited') {
      // A refusal is an answer: the server is back, and its own hint (or the models) holds the key now.
      if (this.#outageFailures > 0) {
        this.#outageFailures = 0;
        this.gate.endOutage(now);
      }
      this.#window = Math.max(1, Math.floor(this.#window / 2));
      if (verdict.retryAfterMs !== null) {
        this.gate.hold(verdict.retryAfterMs, 'retry-after', now);
        return verdict.retryAfterMs;
      }
    } else if (verdict.kind === 'outage') {
      // The backoff grows once per failed probe: calls already in flight when the outage began
      // bring the same news, not a failure of their own (16 of them once jumped to the cap).
      if (this.#outageFailures === 0 || ticket.probe) {
        this.#outageFailures++;
        const ceiling = exponentialCeiling(this.#outageFailures - 1, this.#options.backoff);
        this.gate.hold(ceiling / 2 + (this.#random() * ceiling) / 2, 'outage', now);
      }
    } else if (verdict.kind === 'answered') {
      this.#outageFailures = 0;
      this.gate.endOutage(now);
      this.#window++;
    }
    return null;
  }

  #release(ticket: Ticket, verdict: Verdict, signal: RateLimitSignal | null, now: number): void {
    // One scratch count, reused: the answer is observed before this returns. Not cleared:
    // `#observe` reads only the units of this ticket, which are all set here.
    const before = this.#releasedFrom;
    if (ticket.costs === ONE_REQUEST) {
      const inFlight = this.#inFlightIn(REQUESTS);
      before.set(REQUESTS, inFlight);
      this.#inFlightUnits.set(REQUESTS, Math.max(0, inFlight - 1));
    } else
      for (const unit in ticket.costs) {
        const inFlight = this.#inFlightIn(unit);
        before.set(unit, inFlight);
        this.#inFlightUnits.set(unit, Math.max(0, inFlight - (ticket.costs[unit] as number)));
        if (unit !== REQUESTS && (ticket.costs[unit] as number) > 0)
          this.#callsBooking.set(unit, Math.max(0, (this.#callsBooking.get(unit) ?? 0) - 1));
      }
    this.#inFlight--;
    // Fractional costs (learned tokens) added and taken back leave float residue: none is in
    // flight when no call is, and a model told otherwise would wait for an answer that never comes.
    if (this.#inFlight === 0) {
      this.#inFlightUnits.clear();
      this.#callsBooking.clear();
    }
    if (ticket.probe) this.#probing = false;
    const seen = this.#seen;
    seen.at = now;
    seen.sentAt = ticket.sentAt;
    seen.outcome = verdict.kind === 'answered' || verdict.kind === 'limited' ? verdict.kind : 'failed';
    seen.retryAfterMs = verdict.kind === 'limited' ? verdict.retryAfterMs : null;
    seen.statedPolicy = signal?.dialect === 'ietf';
    const policies = signal ? signal.policies : NO_POLICIES;
    if (this.#configured) {
      const window = signal ? pacingWindow(policies) : undefined;
      this.#configured = bucketModel.observe(
        this.#configured,
        this.#observe(ticket, REQUESTS, window, signal),
      );
    }
    // The windows with counters (of every unit) each have a track; each track is handed the
    // first window of its unit and name the answer reported.
    let counted = 0;
    for (const window of policies) {
      if (window.remaining === null) continue;
      counted++;
      const entry = this.#trackOf(window, now);
      entry.window ??= window;
      if (window.unit !== REQUESTS && seen.outcome !== 'failed')
        this.#learned.observe(window, ticket.mark, now, this.#inFlight + 1, seen.outcome === 'limited');
    }
    // In place: the track entries are this pacer's own, and so are their states.
    for (const entry of this.#tracks) {
      const window = entry.window;
      entry.window = undefined;
      entry.track = trackObserve(entry.track, this.#observe(ticket, entry.unit, window, signal));
    }
    if (counted > 0) this.#lastCountersAt = now;
    else if (
      seen.outcome === 'limited' &&
      this.#tracks.length > 0 &&
      now - this.#lastCountersAt >= COUNTERS_GONE_MS
    )
      this.#forgetTracks(now);
    if (this.#noCounters && counted === 0)
      this.#noCounters = noCountersModel.observe(
        this.#noCounters,
        this.#observe(ticket, REQUESTS, undefined, signal),
      );
    // The concurrency model reads the window of a refusal only (see `refusalWindow`).
    const refused = seen.outcome === 'limited' && signal ? refusalWindow(ticket, policies) : undefined;
    const calls = this.#observe(ticket, REQUESTS, refused, signal);
    calls.cost = 1;
    calls.inFlight = this.#inFlight;
    calls.inFlightBefore = this.#inFlight + 1;
    this.#concurrency = concurrencyModel.observe(this.#concurrency, calls);
  }

  /**
   * The server stopped stating counters (a proxy now strips them) and refuses: the windows it
   * stated are forgotten, and the key learns from refusals as one that never saw counters (the
   * tracks, given no readings, would pace on what they knew and never learn from the refusals).
   */
  #forgetTracks(now: number): void {
    this.#tracks = [];
    this.#requestsOnly = true;
    if (this.#options.rate === undefined) this.#noCounters = newNoCounters(now);
  }

  /** The track that follows `window` (a window with counters), made now when there is none. */
  #trackOf(window: RateLimitPolicy, now: number): UnitTrack {
    const tracks = this.#tracks;
    for (let i = 0; i < tracks.length; i++) {
      const entry = tracks[i] as UnitTrack;
      if (entry.unit === window.unit && entry.name === window.name) return entry;
    }
    const options = {
      spread: this.#options.spread,
      maxRate: this.#options.rate,
      maxBurst: this.#configured?.burst ?? undefined,
    };
    const entry: UnitTrack = {
      unit: window.unit,
      name: window.name,
      track: newTrack(trackId(window), now, options),
      window: undefined,
    };
    tracks.push(entry);
    this.#requestsOnly &&= window.unit === REQUESTS;
    return entry;
  }

  /**
   * The scratch observation, as a model of `unit` sees the answer to `ticket` (its answer-wide
   * fields set by `#release`), with `window` its window as the answer reported it.
   */
  #observe(
    ticket: Ticket,
    unit: string,
    window: RateLimitPolicy | undefined,
    signal: RateLimitSignal | null,
  ): Observation {
    const seen = this.#seen;
    // A unit the ticket did not book (its window appeared while it was in flight) cost nothing in it.
    seen.mark = ticket.marks[unit] ?? this.#sent.get(unit) ?? 0;
    seen.cost = ticket.costs[unit] ?? 0;
    seen.costStated = ticket.stated?.[unit] !== undefined;
    seen.inFlight = this.#inFlightIn(unit);
    seen.inFlightBefore =
      ticket.costs[unit] === undefined ? seen.inFlight : (this.#releasedFrom.get(unit) ?? seen.inFlight);
    seen.window = window ?? null;
    seen.statedRate = window && signal ? statedRate(window, signal) : null;
    seen.unmarked =
      unit === REQUESTS
        ? 0
        : this.#inFlight - (this.#callsBooking.get(unit) ?? 0) + ((ticket.costs[unit] ?? 0) > 0 ? 0 : 1);
    return seen;
  }

  /** The cap on calls in flight learned from the server's refusals, or `null` (none learned). */
  get inFlightCap(): number | null {
    return this.#concurrency.cap;
  }

  /** What the pacer knows: the binding model's figures. */
  snapshot(now: number): PacerSnapshot {
    const units = this.#inFlightIn(REQUESTS);
    const costs = this.#learned.costs();
    let binding: PacerSnapshot | null = null;
    let bindingMs = -1;
    /** Calls the binding window has room for now (`Infinity`: unknown). */
    let bindingCalls = Number.POSITIVE_INFINITY;
    for (const { unit, track } of this.#tracks) {
      if (!this.#governs(unit, track)) continue;
      const inFlight = this.#inFlightIn(unit);
      const perCall = this.#costIn({}, unit) || 1;
      const ms = trackDelay(track, perCall, now, inFlight);
      if (ms < bindingMs) continue;
      const snapshot = trackSnapshot(track, now, inFlight);
      const calls = snapshot.tokens === null ? Number.POSITIVE_INFINITY : snapshot.tokens / perCall;
      // Of windows that hold the next call equally (none, usually), the one with room for the
      // fewest calls binds first: a per-second window before a daily one, whichever is listed first.
      if (ms > bindingMs || calls < bindingCalls) {
        bindingMs = ms;
        bindingCalls = calls;
        binding = { ...snapshot, unit, costs };
      }
    }
    if (
      this.#configured &&
      this.#configuredPaces() &&
      (binding === null || bucketModel.delay(this.#configured, 1, now, units) >= bindingMs)
    )
      return { ...bucketModel.snapshot(this.#configured, now, units), unit: REQUESTS, costs };
    if (binding) return binding;
    if (this.#noCounters)
      return { ...noCountersModel.snapshot(this.#noCounters, now, units), unit: REQUESTS, costs };
    return { rate: null, burst: null, source: null, tokens: null, unit: REQUESTS, costs };
  }

  /** The gate for `stats()`. */
  gateSnapshot(now: number): KeyStats['gate'] {
    const openInMs = this.gate.waitMs(now);
    const closed = openInMs > 0 || this.#outageFailures > 0;
    return {
      open: !closed,
      openInMs,
      reason: closed ? this.gate.reason : null,
      closedMs: this.gate.closedMs(now),
    };
  }
}

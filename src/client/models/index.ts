/**
 * The server models a key's pacer chooses from, and the choice. A window with counters is
 * tracked by every model in {@link COUNTER_MODELS} at once, each observing every answer; the
 * first one the evidence has not contradicted governs (the list is the order of preference), and
 * when the server has contradicted them all, the one it contradicted longest ago does: the
 * evidence since then speaks for it.
 * A server without counters has {@link noCountersModel} alone. Beside the windows, every key has
 * one {@link concurrencyModel}: it caps the calls in flight, not the rate.
 *
 * Adding a kind of server: one file with its model, and one line in {@link COUNTER_MODELS}.
 */
import { bucketModel, newBucket } from './bucket.js';
import type { ModelSnapshot, Observation, ServerModel } from './model.js';
import { boundsConfiguredRate, newWindow, type WindowModelState, windowModel } from './window.js';

export { concurrencyModel, newConcurrency } from './concurrency.js';
export { newNoCounters, noCountersModel } from './no-counters.js';

/**
 * How a track's models are made: `spread` spaces a window's quota evenly (`quota: 'spread'`);
 * `maxRate`, a configured rate (units/s), bounds a window model from above (and gives the length
 * of a window that states none).
 */
export interface TrackOptions {
  spread: boolean;
  maxRate?: number | undefined;
  /** The configured burst, beside `maxRate`. */
  maxBurst?: number | undefined;
}

/** A model with its state constructor. */
interface Registered<S> {
  model: ServerModel<S>;
  create(now: number, options: TrackOptions): S;
}

const register = <S>(
  model: ServerModel<S>,
  create: (now: number, options: TrackOptions) => S,
): Registered<unknown> => ({ model, create }) as Registered<unknown>;

/** Models of a window with counters, in order of preference. */
const COUNTER_MODELS = [
  register(bucketModel, (now) => newBucket(undefined, undefined, now)),
  register(windowModel, (_now, options) =>
    newWindow(options.spread, options.maxRate ?? null, options.maxBurst ?? null),
  ),
] as const;

/**
 * Refusals of the governing model, while another is ruled out for good, after which that one is
 * made afresh: a model ruled out by one server (a token bucket's refill rules a window out) is
 * the right one for the server a deploy put in its place (a fixed window), and the model that
 * keeps governing is refused in every window.
 */
const REVIVE_AFTER_REFUSALS = 3;

/** One window the server reports, under every hypothesis at once (each state updated in place). */
export interface Track {
  readonly id: string;
  readonly states: unknown[];
  readonly options: TrackOptions;
  /** Refusals of the governing model since another was ruled out for good (or made afresh). */
  refusedWhileRuledOut: number;
}

/** A new track for the window `id`. */
export function newTrack(id: string, now: number, options: TrackOptions): Track {
  return { id, states: COUNTER_MODELS.map((m) => m.create(now, options)), options, refusedWhileRuledOut: 0 };
}

/** Index of a model the evidence ruled out for good, or -1. */
function ruledOut(track: Track): number {
  for (let i = 0; i < COUNTER_MODELS.length; i++)
    if (COUNTER_MODELS[i]!.model.falsifiedAt(track.states[i]) === Number.POSITIVE_INFINITY) return i;
  return -1;
}

/**
 * A refusal while a model is ruled out for good: after {@link REVIVE_AFTER_REFUSALS} of them the
 * governing model has not explained the server either, and the ruled-out one starts afresh.
 */
function countRefusal(track: Track, at: number): void {
  const out = ruledOut(track);
  if (out < 0 || governing(track) === out) return;
  track.refusedWhileRuledOut++;
  if (track.refusedWhileRuledOut < REVIVE_AFTER_REFUSALS) return;
  track.refusedWhileRuledOut = 0;
  track.states[out] = COUNTER_MODELS[out]!.create(at, track.options);
}

/** Index of the model that governs now. */
function governing(track: Track): number {
  let best = 0;
  let bestAt = Number.POSITIVE_INFINITY;
  for (let i = 0; i < COUNTER_MODELS.length; i++) {
    const at = COUNTER_MODELS[i]!.model.falsifiedAt(track.states[i]);
    if (at === null) return i;
    if (at < bestAt) {
      best = i;
      bestAt = at;
    }
  }
  return best;
}

/** ms until `cost` units may go on this window (the governing model decides). */
export function trackDelay(track: Track, cost: number, now: number, inFlight: number): number {
  const i = governing(track);
  return COUNTER_MODELS[i]!.model.delay(track.states[i], cost, now, inFlight);
}

/** The track after a send (updated in place, and returned). */
export function trackSent(
  track: Track,
  cost: number,
  now: number,
  mark: number,
  inFlightBefore: number,
): Track {
  const { states } = track;
  for (let i = 0; i < states.length; i++)
    states[i] = COUNTER_MODELS[i]!.model.sent(states[i], cost, now, mark, inFlightBefore);
  return track;
}

/** The track after an answer (updated in place, and returned). */
export function trackObserve(track: Track, observation: Observation): Track {
  if (observation.outcome === 'limited') countRefusal(track, observation.at);
  const { states } = track;
  for (let i = 0; i < states.length; i++)
    states[i] = COUNTER_MODELS[i]!.model.observe(states[i], observation);
  return track;
}

/** What the governing model knows. */
export function trackSnapshot(track: Track, now: number, inFlight: number): ModelSnapshot {
  const i = governing(track);
  return COUNTER_MODELS[i]!.model.snapshot(track.states[i], now, inFlight);
}

/**
 * True when the track governs a configured key too: its counters contradicted a bucket (the
 * configured bucket already follows `remaining` downwards, so a learned bucket adds nothing).
 */
export function trackGovernsConfigured(track: Track): boolean {
  return governing(track) !== 0; // the first model is the bucket
}

/**
 * True when the track paces a configured key in place of its configured bucket: a window governs,
 * and it bounds its spending by the configured rate itself (`maxRate`: at most its limit plus the
 * rate's refill in any span), so the bucket's smaller burst no longer holds the server's word (a
 * window's quota at once) against it.
 */
export function trackReplacesConfigured(track: Track): boolean {
  const i = governing(track);
  return (
    COUNTER_MODELS[i]!.model === windowModel && boundsConfiguredRate(track.states[i] as WindowModelState)
  );
}

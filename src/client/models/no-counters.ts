/**
 * No-counters model: the server says nothing but a refusal (a bare `429`, perhaps with
 * `Retry-After`), so what it allows is learned from refusals alone. The server is read as a bucket
 * of `Q` units refilled at `r` per second; a window or a sliding log reads as a `Q` of its limit
 * that comes back once per `Retry-After`.
 *
 * An **episode** runs from the first send (or from a probe the server admitted) to its first
 * refusal. What each episode admitted and refused, and when, bounds `Q` and `r`. Times are the
 * server's, each send's **arrival**: a send reached the server between leaving and being answered,
 * and the way back is short and alike for all answers, while the way out is what varies — over
 * loopback under load a request on a connection still being opened, or written by a busy
 * process, arrived 10–190 ms after it left, and its answer came back within 0.2–2 ms (19 ms at
 * worst). So a send arrived at `max(sent, answered − fastest − 3 ms)`, with `fastest` the
 * shortest round trip of any episode: the way back is alike for all, and a blind burst on
 * connections still being opened has no round trip of its own under 5–15 ms where a later episode
 * on kept-alive connections has 0.3–1.5 ms. The 3 ms become 10, then 30, where that reading
 * contradicts itself (a process that stalled reads its answers late; {@link WAY_BACK_SLACKS_MS}).
 * None arrived before the episode's first answer less its own fastest round trip (a batch fired
 * all at once grants its first calls while it is still starting
 * the rest: 7–28 ms for 1,000 on 2 cores). Send times
 * alone read the episode as longer than the server saw it: the bounds widened to 0.57–0.77 × the
 * rate below and 1.3–1.8 × above, and the pace, near the lower one, ran 20 % slow.
 * - `Q ≥ L(r)`: the units admitted between any two arrivals s ≤ e are at most `Q + r·(e − s)`,
 *   the span taken at its longest (to the latest answer of the sends that arrived up to `e`);
 * - `Q < U(r)`: at the latest refused arrival f the server's bucket was empty, although it was
 *   full at some arrival s before (an episode starts after a rest), so
 *   `Q + r·(f − s) < admitted from s on + 1`.
 * A rate `r` is consistent when `max L(r) < min U(r)` over the episodes (1 unit of slack for
 * answers that overtook each other): the consistent rates are `[rateLow, rateHigh]`. One episode
 * sent as fast as the calls came pins `Q` (its spans are short), an episode sent slower than its
 * bucket drains then pins `r` — which is why two refusals are needed (README, "Limits"). With two
 * episodes or more, the first run of consistent rates upwards counts: a refusal of two sends that
 * left together is also explained by a tiny bucket refilled very fast, which the first episode's
 * spans (to the latest answer) no longer rule out. The cycle
 * rate, units admitted ÷ the time from the first send to the latest refusal plus one `Retry-After`
 * (the gate ahead), is a rate the server demonstrably sustains and lifts `rateLow`.
 *
 * - **Blind** until the first refusal: unpaced.
 * - **Probe:** after each refusal's gate one call goes alone, once every earlier call is answered;
 *   only its admission opens the key, so a server that counts refused calls is never hammered.
 *   Each probe refused again doubles the model's own hold (`Retry-After` × 2ᵏ, up to 32×): a server
 *   that keeps counting past its hint cannot lock the key out.
 * - **Paced:** after the probe, the largest burst every consistent rate allows (`min U(high)`; a
 *   window's `min U(low)`) less a cushion of 3 at once, then the pace. While the rate is unbounded,
 *   half of `min U` at the ramp's first rate: a bucket refills to its cap before the ramp reaches
 *   its rate, so a smaller burst costs little, while one too large costs a whole `Retry-After`. A
 *   window (episodes that need less refill than the cycle rate) gets no pace: after its burst one
 *   call at a time, 25 ms apart, finds the boundary. While the rate is not bounded (one episode,
 *   one equation, bounds nothing; nor does a `rateHigh` above 8 × `rateLow`) the pace starts at
 *   {@link rampStart} (up to 4 × `rateLow`: the cycle rate counts the whole gate as time the bucket
 *   refilled only its burst, and a ramp from it spent its first doublings with the bucket full) and
 *   doubles every {@link RAMP_STEP_MS}; the slower doubling drains the bucket over longer, which
 *   pins the rate closer (the second episode's drain is what bounds it: 140–150 ms at 100 ms per
 *   doubling, a rate range ±10 % wide). Once bounded the pace is {@link START_SHARE} of the way up
 *   from `rateLow` (at most {@link START_LIFT} × `rateLow`: over loopback the rate sat 0.1–0.7 of
 *   the way up, and 0.4 passed it in 3 of 19 runs) and stays there: one more refusal costs a whole
 *   `Retry-After`, far more than pacing a few percent slow.
 */
import { refill, type Tokens, tokenDelay, tokensAt } from './bucket.js';
import type { ServerModel } from './model.js';

/** A send that was answered: when it left, when its answer came, and its units. */
interface Answered {
  at: number;
  answeredAt: number;
  cost: number;
}

/** One episode: its admitted sends (by send time) and its refused ones. */
export interface Episode {
  /** Appended to as its answers come (in place, like the rest of the state). */
  readonly admitted: Answered[];
  /** Its refused sends (the bucket was empty at each), in the order their refusals came. */
  readonly refused: Answered[];
}

/** An episode as the server saw it: each send at its arrival ({@link arrivals}). */
export interface Arrivals {
  /** The admitted sends by arrival: when each arrived, when its answer came, its units. */
  readonly admitted: readonly Answered[];
  /** The latest arrival of a refused send, or `null` while none was refused. */
  readonly refusedAt: number | null;
}

/** State of the no-counters model. */
export interface NoCountersModelState extends Tokens {
  /** Cumulative units sent (the mark of the newest send). */
  sentMark: number;
  lastActivity: number;
  /** `blind` until the first refusal; `probe` after a refusal until a probe is admitted. */
  phase: 'blind' | 'probe' | 'paced';
  /** Consistent rates (units/s): `rateHigh` is `Infinity` while unbounded. */
  rateLow: number;
  rateHigh: number;
  /** Pace at the start of the paced phase, and when it started. */
  paceBase: number;
  paceFrom: number;
  /** Sends marked after this belong to {@link current}. */
  episodeMark: number;
  /** Ended episodes, oldest first (at most {@link MAX_EPISODES}). */
  episodes: readonly Episode[];
  /** The running episode, or the last one while its probe has not gone. */
  current: Episode;
  /** When the first send left, and units admitted since. */
  firstSentAt: number | null;
  admittedUnits: number;
  /** When the last refusal episode began, and its `Retry-After` (at least 1 s). */
  refusalAt: number;
  periodMs: number;
  /** The probe's mark while it is out. */
  probeMark: number | null;
  /** Probes refused in a row, and the model's own hold after the last one. */
  refusedProbes: number;
  holdUntil: number;
}

/** The pace doubles this often while the rate is unbounded. */
export const RAMP_STEP_MS = 200;
/**
 * While the rate is unbounded the ramp starts at up to this many times `rateLow` (the cycle
 * rate), and at most half the rate the last episode admitted over its own span.
 */
export const RAMP_START = 4;
/**
 * Once bounded, the pace is this share of the way from `rateLow` to `rateHigh`, and at most
 * {@link START_LIFT} × `rateLow` (wide bounds say little about where in them the rate lies).
 */
export const START_SHARE = 0.25;
export const START_LIFT = 1.05;
/** A `rateHigh` above this many times `rateLow` bounds nothing useful: the pace ramps. */
export const UNBOUNDED_RATIO = 8;
/** Units of the burst left unused after a probe. */
export const BURST_CUSHION = 3;
/**
 * An answer's way back is taken to be at most this much longer than the episode's fastest round
 * trip (over loopback under load it was 0.2–2 ms, where the way out took 1–190 ms); the next
 * ones are tried, in order, when episodes read so contradict each other (a process that stalled
 * and read its answers late).
 */
export const WAY_BACK_SLACKS_MS = [3, 10, 30] as const;
/** Units of slack in the consistency test: answers that overtook each other. */
const SLACK = 1;
/** The model's hold after refused probes grows to at most this many times the hint. */
const MAX_HOLD_FACTOR = 32;
/** Episodes remembered, and admitted sends remembered per episode. */
const MAX_EPISODES = 6;
const MAX_ADMITTED = 4096;
/** The rates tried for consistency (units/s), geometric. */
const MIN_RATE = 0.1;
const MAX_RATE = 1e6;
const GRID_STEPS = 120;
/** The fine grid looks this many times below the coarse grid's lowest consistent rate. */
const FINE_SPAN = 16;

/** An episode with nothing in it yet. */
const newEpisode = (): Episode => ({ admitted: [], refused: [] });

/** A fresh no-counters model: unpaced until the first refusal. */
export function newNoCounters(now: number): NoCountersModelState {
  return {
    rate: null,
    burst: null,
    tokens: null,
    updatedAt: now,
    sentMark: 0,
    lastActivity: now,
    phase: 'blind',
    rateLow: 0,
    rateHigh: Number.POSITIVE_INFINITY,
    paceBase: 0,
    paceFrom: now,
    episodeMark: 0,
    episodes: [],
    current: newEpisode(),
    firstSentAt: null,
    admittedUnits: 0,
    refusalAt: now,
    periodMs: 1000,
    probeMark: null,
    refusedProbes: 0,
    holdUntil: 0,
  };
}

/** How {@link arrivals} reads an episode: the slack on the way back, and the fastest round trip of any episode. */
export interface ArrivalReading {
  wayBackSlackMs?: number;
  fastestMs?: number;
}

/** The shortest round trip of any answered send of `e` (`Infinity` when none was answered). */
export function fastestRoundTrip(e: Episode): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (const list of [e.admitted, e.refused])
    for (const a of list) fastest = Math.min(fastest, a.answeredAt - a.at);
  return fastest;
}

/**
 * Where the server saw the episode's sends (see the top): each arrived at
 * `max(sent, answered − back − wayBackSlackMs)`, and none before the episode's first answer less
 * its own fastest round trip. `back`, the way back, is the episode's fastest round trip, or
 * `fastestMs` when shorter: the way back is alike for all answers, so the fastest round trip of
 * any episode bounds it for all of them (a blind burst on connections still being opened has
 * none of its own under 5–15 ms, and read with its own it loses those 5–15 ms of every span).
 */
export function arrivals(
  e: Episode,
  { wayBackSlackMs = WAY_BACK_SLACKS_MS[0], fastestMs = Number.POSITIVE_INFINITY }: ArrivalReading = {},
): Arrivals {
  const fastest = fastestRoundTrip(e);
  let firstAnswer = Number.POSITIVE_INFINITY;
  for (const list of [e.admitted, e.refused])
    for (const a of list) firstAnswer = Math.min(firstAnswer, a.answeredAt);
  const first = firstAnswer - fastest; // nothing reached the server before this
  const back = Math.min(fastest, fastestMs) + wayBackSlackMs; // the longest way back
  const arrival = (a: Answered) => Math.max(a.at, first, a.answeredAt - back);
  const admitted = e.admitted.map((a) => ({ at: arrival(a), answeredAt: a.answeredAt, cost: a.cost }));
  admitted.sort((x, y) => x.at - y.at);
  let refusedAt: number | null = null;
  for (const a of e.refused) refusedAt = Math.max(refusedAt ?? Number.NEGATIVE_INFINITY, arrival(a));
  return { admitted, refusedAt };
}

/**
 * The episodes as the server saw them, each read with `wayBackSlackMs` and the fastest round trip
 * of them all ({@link arrivals}).
 */
export function readEpisodes(
  episodes: readonly Episode[],
  wayBackSlackMs: number = WAY_BACK_SLACKS_MS[0],
): Arrivals[] {
  let fastestMs = Number.POSITIVE_INFINITY;
  for (const e of episodes) fastestMs = Math.min(fastestMs, fastestRoundTrip(e));
  return episodes.map((e) => arrivals(e, { wayBackSlackMs, fastestMs }));
}

/**
 * `L(r)`: the most units the episode admitted over any span, less `r` × that span. The span from
 * `s` to `e` runs from `s`'s arrival to the latest answer of the sends that arrived up to `e`
 * (each arrived before its answer came).
 */
export function lowerBurst(e: Arrivals, rate: number): number {
  let best = Number.NEGATIVE_INFINITY;
  let before = 0; // units admitted before the current send
  let minStart = Number.POSITIVE_INFINITY; // min over s ≤ e of (units before s − r·t_s)
  let lastAnswer = Number.NEGATIVE_INFINITY; // the latest answer of the sends up to e
  for (const a of e.admitted) {
    minStart = Math.min(minStart, before - (rate * a.at) / 1000);
    lastAnswer = Math.max(lastAnswer, a.answeredAt);
    before += a.cost;
    best = Math.max(best, before - (rate * lastAnswer) / 1000 - minStart);
  }
  return best;
}

/**
 * `U(r)`: above this the episode's refusal is impossible (`Infinity` when it had none). From any
 * arrival `s` up to the latest refused arrival `f`, the bucket went from full to empty: `Q` is
 * below the units admitted from `s` on, plus one, less the refill `r · (f − s)`.
 */
export function upperBurst(e: Arrivals, rate: number): number {
  const f = e.refusedAt;
  if (f === null) return Number.POSITIVE_INFINITY;
  let total = 0;
  for (const a of e.admitted) total += a.cost;
  let best = Number.NEGATIVE_INFINITY;
  let before = 0;
  for (const a of e.admitted) {
    if (a.at > f) break;
    best = Math.max(best, total - before + 1 - (rate * (f - a.at)) / 1000);
    before += a.cost;
  }
  return best === Number.NEGATIVE_INFINITY ? 1 : best;
}

/** True when `rate` explains every episode. */
function consistent(episodes: readonly Arrivals[], rate: number): boolean {
  let low = Number.NEGATIVE_INFINITY;
  let high = Number.POSITIVE_INFINITY;
  for (const e of episodes) {
    low = Math.max(low, lowerBurst(e, rate));
    high = Math.min(high, upperBurst(e, rate));
  }
  return low < high + SLACK;
}

/**
 * The consistent rates `[low, high]` (units/s), or `null` when none is (noise): see the top. Tried
 * on a geometric grid, then ten times finer below the coarse grid's lowest consistent rate, down
 * to {@link FINE_SPAN} below it (or everywhere when the coarse one finds none): a range pinned by
 * two episodes is a few percent wide, and a coarse grid that stepped over it would take a run of
 * noise above it for the rate.
 */
export function consistentRates(episodes: readonly Arrivals[]): { low: number; high: number } | null {
  const coarse = onGrid(episodes, MIN_RATE, MAX_RATE, GRID_STEPS);
  if (coarse === null) return onGrid(episodes, MIN_RATE, MAX_RATE, 10 * GRID_STEPS);
  if (coarse.low <= MIN_RATE || episodes.length < 2) return coarse;
  const from = Math.max(MIN_RATE, coarse.low / FINE_SPAN);
  const steps = Math.ceil((10 * GRID_STEPS * Math.log(coarse.low / from)) / Math.log(MAX_RATE / MIN_RATE));
  const below = onGrid(episodes, from, coarse.low, steps);
  if (below === null || below.low >= coarse.low) return coarse;
  // A run that reaches the coarse grid's lowest consistent rate goes on as the coarse one does.
  return below.high >= coarse.low ? { low: below.low, high: coarse.high } : below;
}

/**
 * From the lowest consistent rate in `[from, to]` up to the highest one, or with two episodes or
 * more to the end of the first run of consistent rates: one episode is one equation (`Q + r·t`),
 * explained by rates up to its noise, and its highest consistent rate is the honest "not bounded".
 * A run that reaches `to` ends at the highest consistent rate of the whole grid.
 */
function onGrid(
  episodes: readonly Arrivals[],
  from: number,
  to: number,
  steps: number,
): { low: number; high: number } | null {
  const firstRun = episodes.length >= 2;
  const ratio = (to / from) ** (1 / steps);
  let low: number | null = null;
  let high: number | null = null;
  for (let i = 0, r = from; i <= steps; i++, r *= ratio) {
    if (!consistent(episodes, r)) {
      if (high !== null && firstRun) return { low: low!, high }; // the first run ends here
      continue;
    }
    low ??= i === 0 ? (from <= MIN_RATE ? 0 : r) : refine(episodes, r / ratio, r);
    high = i === steps ? (to >= MAX_RATE ? Number.POSITIVE_INFINITY : r) : refine(episodes, r * ratio, r);
  }
  return low === null || high === null ? null : { low, high };
}

/** The edge between an inconsistent rate `out` and a consistent one `in_`, to 0.1 %. */
function refine(episodes: readonly Arrivals[], out: number, in_: number): number {
  let a = out;
  let b = in_;
  while (Math.abs(a - b) > b * 1e-3) {
    const mid = (a + b) / 2;
    if (consistent(episodes, mid)) b = mid;
    else a = mid;
  }
  return b;
}

/**
 * The pace at `now`: doubling from the base while the rate is unbounded, else the base. A bounded
 * pace does not grow: wide bounds are wide at the top (over real HTTP the upper one read 1.2–1.5 ×
 * the rate), so growing towards it passed the rate and cost a third refusal, a whole `Retry-After`.
 */
export function paceAt(s: NoCountersModelState, now: number): number {
  if (s.rateHigh <= UNBOUNDED_RATIO * s.rateLow) return s.paceBase;
  return s.paceBase * 2 ** (Math.max(0, now - s.paceFrom) / RAMP_STEP_MS);
}

/**
 * The consistent rates of `episodes` read with the shortest way back that explains them all
 * ({@link WAY_BACK_SLACKS_MS}), and the episodes so read; `null` when none does.
 */
function explain(
  episodes: readonly Episode[],
): { low: number; high: number; seen: readonly Arrivals[] } | null {
  for (const slack of WAY_BACK_SLACKS_MS) {
    const seen = readEpisodes(episodes, slack);
    const rates = consistentRates(seen);
    if (rates) return { ...rates, seen };
  }
  return null;
}

/**
 * What the episodes teach: the consistent rates, lifted by the cycle rate, and the burst. Learned
 * when a probe goes, once every call of the last episode was answered.
 */
export function learn(
  s: NoCountersModelState,
): Pick<NoCountersModelState, 'rateLow' | 'rateHigh' | 'paceBase' | 'burst'> {
  const span = s.refusalAt - (s.firstSentAt ?? s.refusalAt) + s.periodMs;
  const cycleRate = (s.admittedUnits * 1000) / Math.max(1, span);
  // Episodes that no single rate explains (timing noise, or a server that changed its limit): the
  // newest two alone, else what was known before.
  const found = explain(s.episodes) ?? explain(s.episodes.slice(-2));
  const rates = found ?? { low: s.rateLow, high: s.rateHigh };
  const seen = found?.seen ?? readEpisodes(s.episodes);
  // A window refills nothing within an episode (its consistent rates are near 0) but once a cycle:
  // the cycle rate stands even above what the episodes allow.
  const rateLow = Math.max(MIN_RATE, rates.low, cycleRate);
  // A window (the episodes need less refill than the cycle rate): nothing comes back within an
  // episode, so after the burst one call at a time finds the boundary.
  const window = rates.high < cycleRate;
  // For a bucket one episode is one equation: whatever its noise bounds, the rate is not bounded
  // by it (one read [0, 297]/s, lifted by the cycle rate to [40, 297], and paced at 44/s: 4.6 ×).
  const rateHigh =
    s.episodes.length < 2 && !window ? Number.POSITIVE_INFINITY : Math.max(rateLow, rates.high);
  const unbounded = rateHigh > UNBOUNDED_RATIO * rateLow;
  // The largest burst every consistent rate allows: a bucket's at the highest, a window's (its
  // limit) at the lowest. While the rate is unbounded, half of what the ramp's first rate allows
  // (not the lowest: after a long blind episode half of that was above the burst, and a second
  // episode refused at once bounds nothing): one too large costs a whole `Retry-After`.
  const ramp = rampStart(seen.at(-1), rateLow);
  let burst = Number.POSITIVE_INFINITY;
  for (const e of seen)
    burst = Math.min(burst, upperBurst(e, window ? rates.low : unbounded ? ramp : rates.high));
  if (unbounded) burst /= 2;
  const paceBase = window
    ? 0
    : unbounded
      ? ramp
      : Math.min(START_LIFT * rateLow, rateLow + START_SHARE * (rateHigh - rateLow));
  return { rateLow, rateHigh, paceBase, burst: Math.max(1, Math.floor(burst) - BURST_CUSHION) };
}

/**
 * Where the ramp starts while the rate is unbounded: {@link RAMP_START} × `rateLow`, but not above
 * half of what the last episode admitted per second of its own span (with `Q + r·T` admitted over
 * a span `T`, that half is below `r` once `T` is long enough to refill `Q`), nor below `rateLow`.
 * `rateLow` is the cycle rate, which counts the whole `Retry-After` as time the server refilled
 * only its burst: after a short episode it sits far below a bucket's rate, and a ramp from it
 * spends its first doublings with the bucket full.
 */
export function rampStart(e: Arrivals | undefined, rateLow: number): number {
  const first = e?.admitted[0];
  if (!e || !first || e.refusedAt === null) return rateLow;
  let units = 0;
  for (const a of e.admitted) units += a.cost;
  const own = (units * 1000) / Math.max(1, e.refusedAt - first.at);
  return Math.max(rateLow, Math.min(RAMP_START * rateLow, own / 2));
}

/** A refusal of the send marked `mark` (sent at `sentAt`), at `now`, with the server's hint. */
export function refuse(
  s: NoCountersModelState,
  mark: number,
  sentAt: number,
  hintMs: number | null,
  now: number,
): NoCountersModelState {
  const periodMs = Math.max(1000, hintMs ?? 0);
  if (mark === s.probeMark) {
    // The server still refuses after its own hint: hold longer each time, never hammer it.
    s.refusedProbes++;
    s.probeMark = null;
    s.holdUntil = now + periodMs * Math.min(MAX_HOLD_FACTOR, 2 ** s.refusedProbes);
    return s;
  }
  if (mark <= s.episodeMark) return s; // a refusal of an episode already learned from
  const { refused } = s.current;
  refused.push({ at: sentAt, answeredAt: now, cost: 1 });
  if (refused.length > MAX_ADMITTED) refused.shift();
  if (s.phase === 'probe') return s; // one more refusal of the same episode
  s.phase = 'probe';
  s.refusalAt = now;
  s.periodMs = periodMs;
  s.tokens = 0;
  s.updatedAt = now;
  return s;
}

/** An admitted answer to the send marked `mark` (sent at `sentAt`, `cost` units), at `now`. */
export function admit(
  s: NoCountersModelState,
  mark: number,
  sentAt: number,
  cost: number,
  now: number,
): NoCountersModelState {
  if (mark <= s.episodeMark) return s;
  // In send order: answers come nearly in it, so the send usually goes last.
  const { admitted } = s.current;
  let i = admitted.length;
  while (i > 0 && admitted[i - 1]!.at > sentAt) i--;
  const send = { at: sentAt, answeredAt: now, cost };
  if (i === admitted.length) admitted.push(send);
  else admitted.splice(i, 0, send);
  if (admitted.length > MAX_ADMITTED) admitted.shift();
  s.admittedUnits += cost;
  if (s.phase === 'probe' && mark === s.probeMark) {
    // The key is open again: the burst at once (less the probe), then the pace from here.
    s.phase = 'paced';
    s.probeMark = null;
    s.refusedProbes = 0;
    s.tokens = Math.max(0, (s.burst ?? 1) - cost);
    s.updatedAt = now;
    s.paceFrom = now;
    s.rate = s.paceBase;
    return s;
  }
  if (s.phase === 'paced') s.rate = paceAt(s, now);
  return s;
}

/** The no-counters model. */
export const noCountersModel: ServerModel<NoCountersModelState> = {
  delay(s, cost, now, inFlight) {
    if (s.phase === 'blind') return 0;
    if (s.phase === 'probe') {
      // One probe at a time, after the model's own hold, and only once the last episode is answered.
      if (s.probeMark !== null || inFlight > 0) return Number.POSITIVE_INFINITY;
      return Math.max(0, s.holdUntil - now);
    }
    // The pace ramps up with time, but the stored rate moves only with answers: with none in flight
    // none will come, so the pace is taken as of now, and looked at again one step later.
    const ramping = inFlight === 0 && s.rateHigh > UNBOUNDED_RATIO * s.rateLow;
    if (ramping) {
      refill(s, now, 0);
      s.rate = paceAt(s, now);
    }
    const ms = tokenDelay(s, cost, 0, now, inFlight, s.lastActivity);
    return ramping ? Math.min(ms, RAMP_STEP_MS) : ms;
  },

  sent(s, cost, now, mark, inFlightBefore) {
    refill(s, now, inFlightBefore);
    s.sentMark = mark;
    s.lastActivity = now;
    s.firstSentAt ??= now;
    if (s.phase === 'probe' && s.probeMark === null) {
      // The probe opens a new episode: the last one is final now (everything of it was answered).
      // A refused probe's episode holds nothing: it is not kept, or enough of them would push
      // every real episode out (and an empty one bounds no burst).
      const { admitted, refused } = s.current;
      if (admitted.length > 0 || refused.length > 0)
        s.episodes = [...s.episodes, s.current].slice(-MAX_EPISODES);
      s.current = newEpisode();
      s.probeMark = mark;
      s.episodeMark = mark - cost;
      Object.assign(s, learn(s));
      s.rate = s.paceBase;
      return s;
    }
    if (s.phase === 'paced' && s.tokens !== null) s.tokens -= cost;
    return s;
  },

  observe(s, o) {
    refill(s, o.at, o.inFlightBefore);
    s.lastActivity = o.at;
    if (o.outcome === 'limited') return refuse(s, o.mark, o.sentAt, o.retryAfterMs, o.at);
    if (o.outcome === 'answered') return admit(s, o.mark, o.sentAt, o.cost, o.at);
    // A failed probe (an outage, an abort) frees the key for the next one.
    if (o.mark === s.probeMark) s.probeMark = null;
    return s;
  },

  snapshot(s, now, inFlight) {
    return {
      rate: s.phase === 'blind' ? null : s.rateLow,
      burst: s.burst,
      source: s.rate === null ? null : 'refusals',
      tokens: tokensAt(s, now, inFlight),
    };
  },

  /** The only model for a server without counters: it adapts to refusals rather than failing on them. */
  falsifiedAt() {
    return null;
  },
};

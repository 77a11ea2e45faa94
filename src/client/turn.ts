/**
 * A call's turn: a call that cannot go at once joins its key's {@link WaitingLine}; at the head it
 * waits for the {@link Pacer} (woken early by every change), then takes its ticket — or, with a
 * store, books its units in the shared quota and waits for them outside the line, queueing again
 * when a gate closed meanwhile.
 */
import type { Clock } from '../core/clock.js';
import { AbortError, DeadlineExceededError } from '../errors.js';
import type { Costs } from './cost.js';
import type { Pacer, Ticket } from './pacer.js';
import { awaitBooking, bookShared } from './shared-booking.js';
import type { SharedQuota } from './shared-quota.js';
import type { Waiter, WaitingLine } from './waiting-line.js';

/** What a turn uses of its key. */
export interface TurnContext {
  readonly pacer: Pacer;
  readonly line: WaitingLine;
  readonly shared: SharedQuota | undefined;
  readonly clock: Clock;
  /** Adds to the key's waited total. */
  addWait(ms: number): void;
  /** Gives back a ticket that will not be sent (and what it booked in a shared quota). */
  cancel(ticket: Ticket): void;
}

/** Waits for the turn of a call of `cost`, in `priority` order: its ticket. `waiter` may throw to give up. */
export async function waitTurn(
  key: TurnContext,
  cost: Costs | number,
  priority: number,
  waiter: Waiter,
): Promise<Ticket> {
  const { pacer, line, clock } = key;
  const signal = waiter.signal;
  const giveBack = (ticket: Ticket) => key.cancel(ticket);
  // The whole turn counts as the key's waiting, as it does for the call (`facts.waitedMs`): behind
  // the head, at it, and for booked units.
  const entered = clock.now();
  // The gate holds every call: behind the head too, its wait is judged and reported now (the
  // deadline, `maxRetryAfterMs`), not once the call reaches the head (the gate may be open by then).
  const gated = pacer.gateDelay(entered);
  if (gated) waiter.checkWait(gated);
  else if (!key.shared) {
    // Nor can it go before the head: the pacer's wait for the next call is the least of its own
    // (judged now, reported at the head: the wait it is told there is its own).
    const pacing = pacer.delay(cost, entered);
    if (pacing.ms > 0 && Number.isFinite(pacing.ms)) waiter.checkWait(pacing, true);
  }
  /** The wait last reported: waking early to the same wait (or a shorter one) is not a new one. */
  const reported: Reported = { reason: gated ? gated.reason : null, until: gated ? entered + gated.ms : 0 };
  // The call's place in the line is free the moment it is aborted (p-queue drops it then), not a
  // few turns later when this function unwinds: a call made right after it may take it.
  let inLine = true;
  const leave = () => {
    if (!inLine) return;
    inLine = false;
    line.leave();
  };
  line.enter();
  signal?.addEventListener('abort', leave);
  try {
    for (;;) {
      let granted: Ticket | undefined;
      /** The call left the line (aborted): a ticket its head still gets goes back. */
      let abandoned = false;
      const head = async () => {
        const ticket = await atHead(key, cost, waiter, reported);
        if (abandoned) {
          giveBack(ticket);
          throw new AbortError(signal?.reason);
        }
        granted = ticket;
        return ticket;
      };
      let ticket: Ticket;
      try {
        ticket = await line.join(head, priority, signal);
      } catch (error) {
        // p-queue races the call's signal against its head: an abort can win after the head was
        // granted its ticket (counted in flight, or the outage probe), which then goes back —
        // or while the head still books in a shared quota: it goes back when the head has it.
        abandoned = true;
        if (granted) giveBack(granted);
        throw error;
      }
      if (ticket.dueInMs === 0) return ticket;
      if (await awaitBooking(ticket, pacer, key.shared as SharedQuota, clock, waiter, signal, giveBack))
        return ticket;
    }
  } catch (error) {
    // An abort for the deadline is its own error, whichever wait it ended; any other is the
    // caller's `AbortError`.
    if (signal?.aborted) {
      if (signal.reason instanceof DeadlineExceededError) throw signal.reason;
      if (!(error instanceof AbortError) && !(error instanceof DeadlineExceededError))
        throw new AbortError(signal.reason);
    }
    throw error;
  } finally {
    signal?.removeEventListener('abort', leave);
    leave();
    key.addWait(clock.now() - entered);
  }
}

/** The wait a call last reported (`reason` `null`: none yet). */
interface Reported {
  reason: string | null;
  until: number;
}

/**
 * At the head of the line: sleeps until the pacer lets the call go, then grants (or books) it,
 * reporting each new wait (`reported`: the call's last report, updated).
 */
async function atHead(
  key: TurnContext,
  cost: Costs | number,
  waiter: Waiter,
  reported: Reported,
): Promise<Ticket> {
  const { pacer, line, shared, clock } = key;
  const signal = waiter.signal;
  for (;;) {
    if (signal?.aborted) throw new AbortError(signal.reason);
    const now = clock.now();
    const delay = pacer.delay(cost, now);
    if (delay.ms <= 0) {
      if (!shared) return pacer.grant(cost, delay.probe, 0, now);
      const booked = await bookShared(shared, pacer, cost, delay.probe, clock);
      if (booked) return booked;
      continue;
    }
    const until = now + delay.ms;
    const repeat = reported.reason === delay.reason && until <= reported.until;
    waiter.checkWait(delay, repeat);
    // A wait for the next answer is no report (it has no length): a timed wait after it is a new one.
    if (!repeat && Number.isFinite(delay.ms)) {
      reported.reason = delay.reason;
      reported.until = until;
    }
    await line.sleep(delay.ms, signal);
  }
}

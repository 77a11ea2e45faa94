/**
 * With a store, the head of a key's line books its units in the shared quota
 * ({@link SharedQuota}): only the booking holds the line, and the booked units are waited for
 * outside it. A gate that closes meanwhile (another process was refused) gives the booking back,
 * and the call queues again.
 */
import { abortable } from '../core/abortable.js';
import type { Clock } from '../core/clock.js';
import { type Costs, REQUESTS } from './cost.js';
import type { Pacer, Ticket } from './pacer.js';
import type { SharedQuota } from './shared-quota.js';
import type { Waiter } from './waiting-line.js';

/**
 * Books one attempt of `cost` in the shared quota: its ticket (units due in `dueInMs`, what the
 * store booked in `shared`), or `null` when the shared gate is closed (the key's own gate then
 * closes as long).
 */
export async function bookShared(
  shared: SharedQuota,
  pacer: Pacer,
  cost: Costs | number,
  probe: boolean,
  clock: Clock,
): Promise<Ticket | null> {
  const { gateMs, waitMs, booked } = await shared.book(
    typeof cost === 'number' ? cost : (cost[REQUESTS] ?? 1),
  );
  if (gateMs > 0) {
    pacer.gate.hold(gateMs, 'retry-after', clock.now());
    return null;
  }
  const ticket = pacer.grant(cost, probe, waitMs, clock.now());
  ticket.shared = booked;
  return ticket;
}

/**
 * Waits for a booked ticket's units to be due. True to send; false when a gate closed meanwhile
 * (the ticket is given back). Throws, after giving the ticket back, when `waiter` gives up or
 * `signal` aborts.
 */
export async function awaitBooking(
  ticket: Ticket,
  pacer: Pacer,
  shared: SharedQuota,
  clock: Clock,
  waiter: Waiter,
  signal: AbortSignal | undefined,
  giveBack: (ticket: Ticket) => void,
): Promise<boolean> {
  let sharedGateMs: number;
  try {
    waiter.checkWait({ ms: ticket.dueInMs, reason: 'pacing', probe: false, window: null });
    await clock.sleep(ticket.dueInMs, signal);
    // Another process may have been refused meanwhile: the shared gate is asked again (an abort
    // or the deadline ends the wait for its answer at once).
    sharedGateMs = await abortable(shared.gateWait(), signal);
  } catch (error) {
    giveBack(ticket);
    throw error;
  }
  if (sharedGateMs > 0) pacer.gate.hold(sharedGateMs, 'retry-after', clock.now());
  if (pacer.gate.waitMs(clock.now()) <= 0) return true;
  giveBack(ticket);
  return false;
}

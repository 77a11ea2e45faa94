/**
 * What `stats()` reports per key.
 */
import type { GateReason } from './gate.js';
import type { PacerSnapshot } from './pacer.js';

/** A snapshot of one key, from `stats()`. */
export interface KeyStats {
  key: string;
  /** Attempts sent. */
  sent: number;
  /** Total ms calls spent waiting (pacing, gates, backoff). */
  waitedMs: number;
  /** Answers that said the key is rate limited (429, or a 403/503 with a retry hint). */
  rateLimited: number;
  /** Retries sent. */
  retries: number;
  /** Whole retries the budget allows now. */
  budgetLeft: number;
  /** What the pacer knows or learned (the binding window's model). */
  learned: PacerSnapshot;
  /** The key's gate now, and `closedMs`: total ms it has been closed (retry hints and outages). */
  gate: { open: boolean; openInMs: number; reason: GateReason | null; closedMs: number };
  /** Attempts sent and not answered yet (with a `store`, also those booked and waiting for their units). */
  inFlight: number;
  /** The cap on calls in flight learned from the server's refusals (`null`: none; `maxConcurrent` still bounds). */
  inFlightCap: number | null;
  /** Calls waiting for their turn. */
  queued: number;
  /** With a `store`: whether its shared quota is in use or the local fallback is (`degraded`), and store failures. */
  shared: { degraded: boolean; failures: number } | null;
}

/**
 * Attempts and waited time of each batch request, measured at the transport: every call runs in
 * its own async context, and the transport counts the attempts it is asked to send for that
 * context and the time that passed outside the network (pacing, gates, backoff) before each.
 * The client needs no hook for it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FetchLike } from '../client/options.js';

/** Counts of one request. */
export interface AttemptCounts {
  attempts: number;
  waitedMs: number;
  /** An attempt is with the transport now (sent, its answer not in yet). */
  sending: boolean;
}

interface Tracked extends AttemptCounts {
  /** When the call last became ready to wait: its start, then each answer. */
  since: number;
}

/** A transport that counts per call, and the way to run a call under it. */
export interface AttemptCounter {
  transport: FetchLike;
  /** Runs `call` (which calls the client) with its own counts, readable while and after it runs. */
  track<T>(call: (counts: AttemptCounts) => Promise<T>): Promise<T>;
  /** The current call ended without another attempt (it failed waiting): its last wait counts too. */
  waitEnded(): void;
}

/** Counts attempts around `inner` (looked up at call time). */
export function attemptCounter(inner: () => FetchLike = () => globalThis.fetch): AttemptCounter {
  const context = new AsyncLocalStorage<Tracked>();
  return {
    async transport(input, init) {
      const tracked = context.getStore();
      if (!tracked) return inner()(input, init);
      tracked.attempts++;
      tracked.waitedMs += performance.now() - tracked.since;
      tracked.sending = true;
      try {
        return await inner()(input, init);
      } finally {
        tracked.sending = false;
        tracked.since = performance.now();
      }
    },
    track(call) {
      const tracked: Tracked = { attempts: 0, waitedMs: 0, sending: false, since: performance.now() };
      return context.run(tracked, () => call(tracked));
    },
    waitEnded() {
      const tracked = context.getStore();
      if (!tracked) return;
      const now = performance.now();
      tracked.waitedMs += now - tracked.since;
      tracked.since = now;
    },
  };
}

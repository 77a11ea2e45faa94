import type { HeaderRecord, RateLimitPolicy, RateLimitSignal } from '../../src/index.js';
import { readRateLimit } from '../../src/index.js';
import type { TimeBase } from '../../src/signals/clock-skew.js';
import { ResponseTime } from '../../src/signals/clock-skew.js';

/** The client's clock when every test response arrives: 2025-01-01T00:00:00Z. */
export const AT = Date.UTC(2025, 0, 1);

/** A time base with no skew, at {@link AT}. */
export const NOW: TimeBase = new ResponseTime(AT, null);

/** `AT` plus `seconds`, as the epoch seconds an `X-RateLimit-Reset` would carry. */
export const epochSeconds = (seconds: number): string => String(AT / 1000 + seconds);

/** Reads `headers` as a response with `status`, received at {@link AT}. */
export function read(status: number, headers: HeaderRecord | Headers): RateLimitSignal {
  return readRateLimit({ status, headers }, { receivedAt: AT });
}

/** A request window as a reader returns it: the fields a server did not state are `null`. */
export function policy(fields: Partial<RateLimitPolicy>): RateLimitPolicy {
  return {
    name: 'default',
    quota: null,
    windowMs: null,
    remaining: null,
    resetInMs: null,
    partitionKey: null,
    unit: 'requests',
    ...fields,
  };
}

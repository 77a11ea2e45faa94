import { expect, it } from 'vitest';
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

/** A dedicated field scanner beside the package reading it stands in for, and the reader using both. */
export interface ScanBesidePackage<T> {
  /** The scan's result; `undefined` when it leaves the text to the package. */
  scan(text: string): T | undefined;
  /** What `structured-headers` makes of the text. */
  package(text: string): unknown;
  /** The reader: the scan, else the package. */
  read(text: string): unknown;
}

/**
 * The table every dedicated scanner passes: each of `common` read by the scan itself, exactly as
 * the package reads it; each of `leftToThePackage` left to the package, with the package's result.
 */
export function scanReadsAsThePackage<T>(
  r: ScanBesidePackage<T>,
  common: readonly string[],
  leftToThePackage: readonly string[],
): void {
  it.each(common)('reads %j itself, as the package does', (text) => {
    const scanned = r.scan(text);
    expect(scanned).toBeDefined();
    expect(scanned).toEqual(r.package(text));
    expect(r.read(text)).toEqual(r.package(text));
  });

  it.each(leftToThePackage)('leaves %j to the package, with the same result', (text) => {
    expect(r.scan(text)).toBeUndefined();
    expect(r.read(text)).toEqual(r.package(text));
  });
}

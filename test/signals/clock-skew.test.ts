import { describe, expect, it, vi } from 'vitest';
import { readRateLimit } from '../../src/index.js';
import { AT, read } from './helpers.js';

/** An IMF-fixdate `seconds` away from the client's clock. */
const httpDate = (seconds: number): string => new Date(AT + seconds * 1000).toUTCString();
const iso = (seconds: number): string => new Date(AT + seconds * 1000).toISOString();
const epoch = (seconds: number): string => String(AT / 1000 + seconds);

describe('rule 2: absolute times are measured against the Date header, and added to receivedAt', () => {
  it.each([
    // [what, status, headers, field, expected ms]
    [
      'epoch reset, no Date: against receivedAt',
      200,
      { 'x-ratelimit-reset': epoch(60) },
      'resetInMs',
      60_000,
    ],
    [
      'epoch reset, server 10 min behind',
      200,
      { Date: httpDate(-600), 'x-ratelimit-reset': epoch(-600 + 60) },
      'resetInMs',
      60_000,
    ],
    [
      'epoch reset, server 1 h ahead',
      200,
      { Date: httpDate(3600), 'x-ratelimit-reset': epoch(3600 + 30) },
      'resetInMs',
      30_000,
    ],
    [
      'epoch-ms reset, server 1 h ahead',
      200,
      { Date: httpDate(3600), 'x-ratelimit-reset': String(AT + 3_630_000) },
      'resetInMs',
      30_000,
    ],
    [
      'RFC 3339 reset (Anthropic), server 5 min behind',
      200,
      { Date: httpDate(-300), 'anthropic-ratelimit-requests-reset': iso(-300 + 20) },
      'resetInMs',
      20_000,
    ],
    [
      'Retry-After HTTP-date, server 10 h ahead',
      429,
      { Date: httpDate(36_000), 'Retry-After': httpDate(36_000 + 120) },
      'retryAfterMs',
      120_000,
    ],
    [
      'Retry-After in the past of the server: clamps to 0',
      503,
      { Date: httpDate(0), 'Retry-After': httpDate(-5) },
      'retryAfterMs',
      0,
    ],
    [
      'reset before the server Date: clamps to 0',
      200,
      { Date: httpDate(100), 'x-ratelimit-reset': epoch(50) },
      'resetInMs',
      0,
    ],
    [
      'invalid Date: against receivedAt',
      200,
      { Date: 'yesterday', 'x-ratelimit-reset': epoch(45) },
      'resetInMs',
      45_000,
    ],
    [
      'two Date lines joined: invalid, against receivedAt',
      200,
      { Date: [httpDate(100), httpDate(100)], 'x-ratelimit-reset': epoch(45) },
      'resetInMs',
      45_000,
    ],
    [
      'delta seconds are not affected by Date',
      200,
      { Date: httpDate(-3600), 'ratelimit-reset': '30' },
      'resetInMs',
      30_000,
    ],
  ] as const)('%s', (_what, status, headers, field, ms) => {
    expect(read(status, headers)[field]).toBe(ms);
  });

  it('resetAtMs is receivedAt + resetInMs, on the client clock', () => {
    const signal = read(200, { Date: httpDate(3600), 'x-ratelimit-reset': epoch(3600 + 30) });
    expect(signal.resetAtMs).toBe(AT + 30_000);
  });

  it('receivedAt defaults to the wall clock', () => {
    const wall = vi.spyOn(Date, 'now').mockReturnValue(AT);
    try {
      const signal = readRateLimit({ status: 200, headers: { 'ratelimit-reset': '10' } });
      expect(signal.resetInMs).toBe(10_000);
      expect(signal.resetAtMs).toBe(AT + 10_000);
    } finally {
      wall.mockRestore();
    }
  });
});

describe('rule 2: a Date of the same second as receivedAt says no skew', () => {
  it('an epoch reset is measured against the finer client clock, not the whole second of Date', () => {
    // The client receives at x.800; the server's Date names second x, its reset is x + 2 s.
    const receivedAt = AT + 800;
    const headers = { Date: new Date(AT).toUTCString(), 'x-ratelimit-reset': String(AT / 1000 + 2) };
    expect(readRateLimit({ status: 200, headers }, { receivedAt }).resetInMs).toBe(1200);
  });

  it('a Date a second or more away is skew, and corrected', () => {
    const receivedAt = AT + 1800;
    const headers = { Date: new Date(AT).toUTCString(), 'x-ratelimit-reset': String(AT / 1000 + 2) };
    expect(readRateLimit({ status: 200, headers }, { receivedAt }).resetInMs).toBe(2000);
  });
});

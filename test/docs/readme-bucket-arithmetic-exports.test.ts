/**
 * README, "Options" of the server: "The exported bucket arithmetic (`take`, `reserve`,
 * `BucketConfig`) speaks `{ rate, burst }` too." `headway/server` is the entry that exports `take`
 * and `BucketConfig`; `reserve` (book units now, get the exact wait) must be exported beside them.
 */
import { describe, expect, it } from 'vitest';
import * as server from '../../src/server/index.js';

describe('README: the exported bucket arithmetic', () => {
  it('exports take and reserve from headway/server, both on { rate, burst }', () => {
    expect(typeof server.take).toBe('function');
    const exported = server as unknown as Record<string, unknown>;
    expect(typeof exported.reserve).toBe('function');
    const reserve = exported.reserve as (
      state: { tokens: number; updatedAt: number },
      config: { rate: number; burst: number },
      now: number,
      cost?: number,
    ) => { waitMs: number };
    // An empty bucket of 10/s: the next unit is booked 100 ms ahead.
    expect(reserve({ tokens: 0, updatedAt: 0 }, { rate: 10, burst: 1 }, 0).waitMs).toBe(100);
  });
});

/**
 * A token bucket whose refill is vanishingly slow (a window of 10²⁰ ms, which a policy accepts):
 * the exact wait of a refusal is searched by whole ms from an estimate, and past 2⁵³ ms a step of
 * 1 no longer moves it, so an unbounded search froze the process on the first refusal. The search
 * is bounded: the refusal answers, its wait as long as the estimate says. In a child process, so a
 * freeze is a killed child, not a hung test run.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runTsChild } from '../support/run-child.js';

describe('a token bucket refilling 1 unit per 10²⁰ ms', () => {
  it('refuses with a long wait instead of freezing the process', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/vast-window.ts', import.meta.url));
    const { code, stdout, stderr } = await runTsChild(fixture, 20_000);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const waits = JSON.parse(stdout) as number[];
    expect(waits).toHaveLength(2);
    for (const [i, windowMs] of [1e20, 1e16].entries())
      expect(waits[i]).toBeGreaterThanOrEqual(windowMs * 0.99);
  }, 30_000);
});

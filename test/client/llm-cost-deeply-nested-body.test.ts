/**
 * `estimateTokens` / `llmCost` (src/client/llm-cost.ts): "`undefined` when `body` is not a JSON
 * object", else `ceil(prompt characters / charsPerToken)` plus the completion limit. A prompt may
 * carry arbitrary JSON (tool arguments, a user's document) nested deeply; `JSON.parse` reads it,
 * and the estimate must too. README (Client options): every call resolves with a `Response` or
 * rejects with a documented `HeadwayError`; a `cost` helper of Headway's own must not make a call
 * reject with a `RangeError`.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { estimateTokens, llmCost } from '../../src/client/llm-cost.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

/** A chat body whose one message content is `"hi"` inside `depth` arrays (about 2·depth bytes). */
const nested = (depth: number) =>
  `{"messages":[{"role":"user","content":${'['.repeat(depth)}"hi"${']'.repeat(depth)}}],"max_tokens":10}`;

describe('llmCost on a deeply nested JSON body', () => {
  it('estimateTokens reads a body nested 100,000 deep (200 KB), as JSON.parse does', () => {
    expect(() => JSON.parse(nested(100_000))).not.toThrow();
    expect(estimateTokens(nested(100_000))).toBe(Math.ceil('userhi'.length / 4) + 10);
  });

  it('a call with cost: llmCost() and such a body is sent, not rejected with a RangeError', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const fetch = createFetch({ fetch: server.fetch, clock, cost: llmCost() });
    const [result] = await runUntilSettled(clock, [
      fetch('http://127.0.0.1:9/v1/chat/completions', { method: 'POST', body: nested(100_000) }),
    ]);
    expect(result?.status).toBe('fulfilled');
    expect(server.seen).toHaveLength(1);
  });
});

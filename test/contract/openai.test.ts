/**
 * The real `openai` SDK, unchanged, with Headway as its `fetch`, against an OpenAI-shaped server
 * (test/support/openai-server.ts: RPM and TPM windows, Go-duration resets, `retry-after-ms` and
 * `retry-after` on 429, a JSON error body) whose token window binds: 40 completions of about 130
 * tokens from 8 callers, against 3,000 tokens per second and 100 requests per second. Asserted:
 * every call completes, with the SDK's own parsed result, and the server refused (almost) none.
 * The SDK alone, for contrast, is refused and fails. No duration is asserted.
 */
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { llmCost, openaiUsage } from '../../src/client/llm-cost.js';
import type { ClientOptions } from '../../src/client/options.js';
import { type OpenAIServer, startOpenAIServer } from '../support/openai-server.js';

const CALLS = 40;
const CALLERS = 8;
let server: OpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Job {
  completed: OpenAI.Chat.ChatCompletion[];
  errors: unknown[];
}

async function job(make: (baseURL: string) => OpenAI): Promise<Job & { server: OpenAIServer }> {
  server = await startOpenAIServer({
    requests: { limit: 100, windowMs: 1000 },
    tokens: { limit: 3000, windowMs: 1000 },
  });
  const openai = make(server.baseURL);
  const completed: OpenAI.Chat.ChatCompletion[] = [];
  const errors: unknown[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      for (let i = next++; i < CALLS; i = next++) {
        try {
          completed.push(
            await openai.chat.completions.create({
              model: 'gpt-4o-mini',
              max_tokens: 100 + (i % 5) * 5,
              messages: [{ role: 'user', content: `Summarise item ${i} of the batch in one line, please.` }],
            }),
          );
        } catch (error) {
          errors.push(error);
        }
      }
    }),
  );
  return { completed, errors, server };
}

const withHeadway = (options: ClientOptions) => (baseURL: string) =>
  new OpenAI({ apiKey: 'sk-test', baseURL, fetch: createFetch(options) });

describe('openai SDK with Headway as its fetch, token window binding', () => {
  it('with a cost estimate: every completion succeeds, and the server refuses none', async () => {
    let settled = 0;
    const { completed, errors, server } = await job(
      withHeadway({
        cost: llmCost(),
        settleCost: (response) => {
          settled++;
          return openaiUsage(response);
        },
      }),
    );
    expect(errors).toEqual([]);
    expect(completed).toHaveLength(CALLS);
    // The SDK parsed every body: the settle hook read a clone, never the caller's response.
    for (const c of completed) expect(c.usage?.total_tokens).toBeGreaterThan(100);
    expect(settled).toBe(CALLS);
    expect(server.counts().refused).toBeLessThanOrEqual(1);
  });

  it('with no configuration: learns what a call costs in tokens, and completes every call', async () => {
    const { completed, errors, server } = await job(withHeadway({}));
    expect(errors).toEqual([]);
    expect(completed).toHaveLength(CALLS);
    // The issue allows 20 refusals for the 300-call job unconfigured (bench S7); the SDK alone gets
    // dozens here. Learning the token cost from how `remaining` moves costs a few in some runs.
    expect(server.counts().refused).toBeLessThanOrEqual(20);
    // Usually under 1 s; one CI run on Node 26 took over vitest's default 5 s. The bound is a
    // loose sanity bound (timing targets are S7's), not the test's claim.
  });

  it('for contrast, the SDK alone is refused for tokens and calls fail', async () => {
    const { completed, errors, server } = await job(
      (baseURL) => new OpenAI({ apiKey: 'sk-test', baseURL, maxRetries: 1 }),
    );
    expect(server.counts().refusedFor.tokens).toBeGreaterThan(0);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toBeInstanceOf(OpenAI.RateLimitError);
    expect((errors[0] as InstanceType<typeof OpenAI.RateLimitError>).code).toBe('rate_limit_exceeded');
    expect(completed.length + errors.length).toBe(CALLS);
  });
});

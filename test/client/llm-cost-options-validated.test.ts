/**
 * `llmCost({ charsPerToken, defaultMaxTokens })` (README, Token quotas: "Set `max_tokens`, or
 * `llmCost({ charsPerToken })` for your text"). House rule (conventions.md 4): options are validated
 * eagerly, at construction, with ``Expected `x` to be a positive finite number, got …``. A bad one
 * must be an `InvalidOptionError` naming it when `llmCost` is called — not an estimate silently cut
 * to 1 token, nor an `InvalidCostError` about `cost.tokens` at every call.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { llmCost } from '../../src/client/llm-cost.js';
import { describeRequest } from '../../src/client/request.js';

const chat = JSON.stringify({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'x'.repeat(4_000) }],
  max_tokens: 100,
});

const thrown = (make: () => unknown) => {
  try {
    make();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('llmCost: its options are validated when it is made', () => {
  it.each([
    ['charsPerToken', { charsPerToken: 0 }],
    ['charsPerToken', { charsPerToken: -4 }],
    ['charsPerToken', { charsPerToken: Number.NaN }],
    ['defaultMaxTokens', { defaultMaxTokens: -1_000 }],
    ['defaultMaxTokens', { defaultMaxTokens: Number.POSITIVE_INFINITY }],
  ])('a bad %s (%j) is an InvalidOptionError naming it', (option, options) => {
    expect(thrown(() => llmCost(options))).toMatchObject({ code: 'HEADWAY_INVALID_OPTION', option });
  });

  it('a negative charsPerToken does not cut a 1,000-token prompt to an estimate of 1 token', () => {
    const post = describeRequest('https://api.example/v1/chat/completions', { method: 'POST', body: chat });
    let estimate: unknown;
    try {
      estimate = llmCost({ charsPerToken: -4 })(post);
    } catch (error) {
      estimate = error; // refused: the fix
    }
    expect(estimate).not.toEqual({ requests: 1, tokens: 1 });
  });

  it('charsPerToken 0 fails at construction, not as an InvalidCostError about cost.tokens at each call', async () => {
    const made = thrown(() =>
      createFetch({ fetch: async () => new Response('{}'), cost: llmCost({ charsPerToken: 0 }) }),
    );
    expect(made).toMatchObject({ code: 'HEADWAY_INVALID_OPTION', option: 'charsPerToken' });
  });
});

import { describe, expect, it } from 'vitest';
import { estimateTokens, llmCost, openaiUsage } from '../../src/client/llm-cost.js';
import { describeRequest } from '../../src/client/request.js';

const chat = (content: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], ...extra });

describe('estimateTokens', () => {
  it.each([
    [
      'a 40-character prompt and max_tokens 400',
      chat('x'.repeat(40), { max_tokens: 400 }),
      (40 + 4) / 4 + 400,
    ], // `user` counts too: a role stands in for the per-message overhead
    ['max_completion_tokens', chat('x'.repeat(8), { max_completion_tokens: 50 }), (8 + 4) / 4 + 50],
    [
      'max_output_tokens (responses API)',
      JSON.stringify({ input: 'x'.repeat(12), max_output_tokens: 7 }),
      3 + 7,
    ],
    [
      'content parts and a system prompt',
      JSON.stringify({
        system: 'x'.repeat(4),
        messages: [{ role: 'user', content: [{ type: 'text', text: 'y'.repeat(8) }] }],
        max_tokens: 1,
      }),
      (4 + 4 + 4 + 8) / 4 + 1,
    ],
    ['no limit: the default completion', chat('x'.repeat(4)), (4 + 4) / 4 + 1024],
  ])('%s', (_name, body, expected) => {
    expect(estimateTokens(body)).toBe(expected);
  });

  it('takes the characters per token and the default completion as options', () => {
    expect(estimateTokens(chat('x'.repeat(30)), { charsPerToken: 3, defaultMaxTokens: 20 })).toBe(
      Math.ceil(34 / 3) + 20,
    );
  });

  it.each([[undefined], ['not json'], ['[1,2]'], ['"text"']])('%j is no estimate', (body) => {
    expect(estimateTokens(body)).toBeUndefined();
  });
});

describe('llmCost', () => {
  it('a JSON body costs one request and its estimated tokens; no body costs one request', () => {
    const cost = llmCost();
    const post = describeRequest('https://api.example/v1/chat/completions', {
      method: 'POST',
      body: chat('x'.repeat(40), { max_tokens: 400 }),
    });
    expect(cost(post)).toEqual({ requests: 1, tokens: 411 });
    expect(cost(describeRequest('https://api.example/v1/models', undefined))).toBe(1);
  });
});

describe('openaiUsage', () => {
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

  it.each([
    [
      'OpenAI usage',
      { usage: { prompt_tokens: 30, completion_tokens: 370, total_tokens: 400 } },
      { tokens: 400 },
    ],
    ['Anthropic usage', { usage: { input_tokens: 30, output_tokens: 70 } }, { tokens: 100 }],
    ['no usage', { id: 'x' }, undefined],
    ['zero tokens', { usage: { total_tokens: 0 } }, undefined],
  ])('%s', async (_name, body, expected) => {
    expect(await openaiUsage(json(body))).toEqual(expected);
  });

  it('settles nothing from malformed JSON, and stops reading an endless body', async () => {
    const broken = new Response('{"usage":', { headers: { 'content-type': 'application/json' } });
    expect(await openaiUsage(broken)).toBeUndefined();
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
      cancel() {
        cancelled = true;
      },
    });
    expect(
      await openaiUsage(new Response(endless, { headers: { 'content-type': 'application/json' } })),
    ).toBeUndefined();
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(100);
  });

  it('leaves a body that is not JSON (a stream) unread', async () => {
    const stream = new Response('data: {}\n\n', { headers: { 'content-type': 'text/event-stream' } });
    expect(await openaiUsage(stream)).toBeUndefined();
  });
});

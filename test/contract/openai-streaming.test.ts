/**
 * README, Client options: "`maxConcurrent` — calls of a key in flight at once, your bound; an
 * answer streamed as Server-Sent Events (`text/event-stream`) counts until its body ends", on every
 * face. The real `openai` SDK, unchanged, streams chat completions (`stream: true`) from a local
 * OpenAI-shaped server (test/support/openai-server.ts), with Headway as its `fetch` and, through
 * the built-in `fetch`, installed globally: 8 streams asked for at once under `maxConcurrent: 2`
 * are read whole, never more than 2 open at the server. Without the bound more stream at once
 * (the control: the server's count is what the bound changes).
 */
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { installGlobal } from '../../src/undici/index.js';
import { type OpenAIServer, startOpenAIServer } from '../support/openai-server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(): Promise<OpenAIServer> {
  const started = await startOpenAIServer({
    requests: { limit: 1000, windowMs: 1000 },
    tokens: { limit: 1_000_000, windowMs: 1000 },
    streamChunks: 4,
    streamChunkMs: 10,
  });
  cleanups.push(() => started.close());
  return started;
}

/** 8 streamed completions at once, each read to its end: the text each streamed. */
async function streamEight(openai: OpenAI): Promise<string[]> {
  return Promise.all(
    Array.from({ length: 8 }, async (_, i) => {
      const stream = await openai.chat.completions.create({
        model: 'gpt-4o-mini',
        max_tokens: 20,
        stream: true,
        messages: [{ role: 'user', content: `Count to ${i}.` }],
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    }),
  );
}

const WHOLE = 'part0 part1 part2 part3 ';

describe('the openai SDK streaming through Headway (maxConcurrent: 2)', () => {
  it('createFetch as its fetch: 8 streams read whole, at most 2 open at once', async () => {
    const api = await server();
    const fetch = createFetch({ maxConcurrent: 2 });
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: api.baseURL, fetch });
    expect(await streamEight(openai)).toEqual(Array(8).fill(WHOLE));
    expect(api.counts().answered).toBe(8);
    expect(api.counts().mostStreamsOpen).toBe(2);
  });

  it('installed globally (the built-in fetch): 8 streams read whole, at most 2 open at once', async () => {
    const api = await server();
    cleanups.push(installGlobal({ maxConcurrent: 2 }));
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: api.baseURL });
    expect(await streamEight(openai)).toEqual(Array(8).fill(WHOLE));
    expect(api.counts().answered).toBe(8);
    expect(api.counts().mostStreamsOpen).toBe(2);
  });

  it('the control, no bound: more than 2 stream at once', async () => {
    const api = await server();
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: api.baseURL, fetch: createFetch() });
    expect(await streamEight(openai)).toEqual(Array(8).fill(WHOLE));
    expect(api.counts().mostStreamsOpen).toBeGreaterThan(2);
  });
});

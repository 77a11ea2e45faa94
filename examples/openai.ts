/**
 * Pace the `openai` SDK on its token quota: Headway is its `fetch`, each call's tokens are
 * estimated before it leaves (`llmCost`) and its usage is read back after (`openaiUsage`). Then
 * streamed completions (`stream: true`) under `maxConcurrent: 4`: a stream holds its place until
 * it ends, so at most four are open at once.
 * Run: `node --import tsx examples/openai.ts` — against a local OpenAI-shaped server (4,000 tokens
 * and 100 requests per second); with OPENAI_API_KEY set, against the real API instead.
 */
import OpenAI from 'openai';
import { createFetch, llmCost, openaiUsage } from '../src/index.js';
import { startOpenAIServer } from '../test/support/openai-server.js';

const local = process.env.OPENAI_API_KEY
  ? undefined
  : await startOpenAIServer({
      requests: { limit: 100, windowMs: 1000 },
      tokens: { limit: 4000, windowMs: 1000 },
    });

const fetch = createFetch({ cost: llmCost(), settleCost: openaiUsage });
const openai = new OpenAI({
  apiKey: process.env.OPENAI_API_KEY ?? 'sk-local',
  baseURL: local?.baseURL ?? process.env.OPENAI_BASE_URL,
  fetch,
});

const started = performance.now();
const results = await Promise.allSettled(
  Array.from({ length: 30 }, (_, i) =>
    openai.chat.completions.create({
      model: 'gpt-4o-mini',
      max_tokens: 200,
      messages: [{ role: 'user', content: `Name one prime number above ${i * 100}.` }],
    }),
  ),
);
const failed = results.filter((r) => r.status === 'rejected').length;
const seconds = ((performance.now() - started) / 1000).toFixed(2);
console.log(`30 completions at once in ${seconds} s; ${failed} failed`);
for (const s of fetch.stats()) console.log(`  ${s.key}: sent ${s.sent}, 429s ${s.rateLimited}`);
if (local) console.log(`server refused: ${local.counts().refused}`);

// Streams: each counts against `maxConcurrent` until its last event, not just until its head.
const streaming = new OpenAI({
  apiKey: process.env.OPENAI_API_KEY ?? 'sk-local',
  baseURL: local?.baseURL ?? process.env.OPENAI_BASE_URL,
  fetch: createFetch({ cost: llmCost(), settleCost: openaiUsage, maxConcurrent: 4 }),
});
const texts = await Promise.all(
  Array.from({ length: 12 }, async (_, i) => {
    const stream = await streaming.chat.completions.create({
      model: 'gpt-4o-mini',
      max_tokens: 50,
      stream: true,
      messages: [{ role: 'user', content: `Count to ${i + 3}.` }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    return text;
  }),
);
console.log(`12 streamed completions read, ${texts.filter((t) => t.length > 0).length} with text`);
if (local) {
  console.log(`most streams open at once: ${local.counts().mostStreamsOpen}`);
  await local.close();
}

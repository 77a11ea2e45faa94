/**
 * S7 (token quotas): 300 chat completions through the real `openai` SDK, 8 callers, against an
 * OpenAI-shaped server (test/support/openai-server.ts) whose token window binds: requests 100 per
 * second, tokens 20,000 per second, each a bucket that starts full and refills continuously; each
 * completion counts its prompt (≈ 20–40 tokens, the server's own count) plus `max_tokens`
 * (380–420), about 430 tokens.
 *
 * Minimum: a window of `L` units refilling `r` per second that counted `C` units for the admitted
 * calls cannot have admitted them in less than `(C − L) / r`; the job's minimum is the largest over
 * its windows: `max((Σ tokens − 20,000) / 20,000, (300 − 100) / 100)` seconds — the token window's.
 * Wall time is from the first call to the last settled one; 429s and refusals are the server's count.
 *
 * Cells: the SDK alone (its own retries: 2 by default, and 10), and the SDK with Headway as its
 * `fetch` — given a cost estimate (`llmCost()`) and with no configuration at all.
 */

import { createFetch, llmCost } from 'headway';
import OpenAI from 'openai';
import { countedTokens, type OpenAIServerCounts, startOpenAIServer } from '../test/support/openai-server.js';
import type { Report } from './lib/report.js';
import { fixed, median } from './lib/stats.js';

export interface S7Options {
  reps: number;
  calls: number;
  callers: number;
}

const REQUESTS = { limit: 100, windowMs: 1000 };
const TOKENS = { limit: 20_000, windowMs: 1000 };
const WORDS = 'the quick brown fox jumps over a lazy dog while rate limits bind on tokens'.split(' ');

/** The i-th call's request: a prompt of 15–34 words and a `max_tokens` of 380–420. */
function completion(i: number): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming {
  const words = Array.from({ length: 15 + ((i * 7) % 20) }, (_, k) => WORDS[(i + k) % WORDS.length]);
  return {
    model: 'gpt-4o-mini',
    max_tokens: 380 + ((i * 13) % 41),
    messages: [{ role: 'user', content: words.join(' ') }],
  };
}

interface Cell {
  name: string;
  client(baseURL: string): OpenAI;
  /** Headway cells must meet these. */
  target?: { max429: number; maxRatio: number };
}

export const s7Cells: readonly Cell[] = [
  {
    name: 'Headway, cost estimate (`llmCost()`)',
    client: (baseURL) => new OpenAI({ apiKey: 'sk-bench', baseURL, fetch: createFetch({ cost: llmCost() }) }),
    target: { max429: 5, maxRatio: 1.1 },
  },
  {
    name: 'Headway, no configuration',
    client: (baseURL) => new OpenAI({ apiKey: 'sk-bench', baseURL, fetch: createFetch() }),
    target: { max429: 20, maxRatio: 1.25 },
  },
  {
    name: 'openai SDK alone (maxRetries 2)',
    client: (baseURL) => new OpenAI({ apiKey: 'sk-bench', baseURL }),
  },
  {
    name: 'openai SDK alone (maxRetries 10)',
    client: (baseURL) => new OpenAI({ apiKey: 'sk-bench', baseURL, maxRetries: 10 }),
  },
];

/** The job's minimum: the largest over its windows of (units the job counts − limit) / rate. */
function minimumMs(calls: number): number {
  let tokens = 0;
  for (let i = 0; i < calls; i++) tokens += countedTokens(completion(i));
  const tokenMs = ((tokens - TOKENS.limit) * TOKENS.windowMs) / TOKENS.limit;
  const requestMs = ((calls - REQUESTS.limit) * REQUESTS.windowMs) / REQUESTS.limit;
  return Math.max(0, tokenMs, requestMs);
}

interface Run {
  wallMs: number;
  minimumMs: number;
  failed: number;
  counts: OpenAIServerCounts;
}

async function runOnce(cell: Cell, o: S7Options): Promise<Run> {
  const server = await startOpenAIServer({ requests: REQUESTS, tokens: TOKENS });
  try {
    const openai = cell.client(server.baseURL);
    let next = 0;
    let failed = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: o.callers }, async () => {
        for (let i = next++; i < o.calls; i = next++) {
          try {
            await openai.chat.completions.create(completion(i));
          } catch {
            failed++;
          }
        }
      }),
    );
    const wallMs = performance.now() - started;
    return { wallMs, minimumMs: minimumMs(o.calls), failed, counts: server.counts() };
  } finally {
    await server.close();
  }
}

/** Runs S7: every cell `reps` times, medians reported. */
export async function runS7(report: Report, o: S7Options): Promise<void> {
  const rows: string[][] = [];
  report.note(`S7 minimum: ${fixed(minimumMs(o.calls) / 1000, 2)} s (the token window binds).`);
  for (const cell of s7Cells) {
    const runs: Run[] = [];
    for (let rep = 0; rep < o.reps; rep++) {
      process.stderr.write(`S7 ${cell.name} rep ${rep + 1}/${o.reps}\n`);
      runs.push(await runOnce(cell, o));
    }
    const ratio = median(runs.map((r) => r.wallMs / r.minimumMs));
    const refused = median(runs.map((r) => r.counts.refused));
    const failed = median(runs.map((r) => r.failed));
    rows.push([
      cell.name,
      fixed(median(runs.map((r) => r.wallMs)) / 1000, 2),
      `${fixed(ratio, 2)}×`,
      String(failed),
      String(refused),
      String(median(runs.map((r) => r.counts.refusedFor.tokens))),
    ]);
    if (cell.target) {
      const { max429, maxRatio } = cell.target;
      report.verdict({
        scenario: 'S7',
        row: `S7 ${cell.name}`,
        headway: `${fixed(ratio, 2)}×, ${failed} failed, ${refused} × 429`,
        bestPeer: 'see table',
        target: `0 failed, ≤ ${max429} × 429, ≤ ${maxRatio}× minimum`,
        pass: failed === 0 && refused <= max429 && ratio <= maxRatio,
      });
    }
  }
  report.table(
    `S7 — token quotas: ${o.calls} chat completions through the openai SDK, ${o.callers} callers`,
    `OpenAI-shaped server: requests ${REQUESTS.limit}/s and tokens ${TOKENS.limit.toLocaleString('en')}/s, buckets that start full and refill continuously; each call counts its prompt + \`max_tokens\` (≈ 430 tokens). Minimum = max over windows of (units the job counts − limit) / rate = ${fixed(minimumMs(o.calls) / 1000, 2)} s, the token window's. Medians of ${o.reps} rep(s).`,
    ['client', 'wall s', 'wall / minimum', 'failed', '429s', '429s for tokens'],
    rows,
  );
}

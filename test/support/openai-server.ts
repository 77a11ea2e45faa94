/**
 * An OpenAI-shaped server on 127.0.0.1 for the contract test and the token-quota benchmark,
 * built from OpenAI's documented rate-limit behaviour
 * (https://platform.openai.com/docs/guides/rate-limits):
 *
 * - Two limits per key at once, requests (RPM) and tokens (TPM), each a bucket of `limit` that
 *   refills continuously to full over `windowMs`. A request must fit both; it counts in both or in
 *   neither (a refusal counts nothing).
 * - A request counts its prompt tokens plus its completion limit (`max_tokens`, else
 *   `defaultMaxTokens`) when it is admitted: "your rate limit is calculated as the maximum of
 *   max_tokens and the estimated number of tokens", the completion being reserved up front.
 *   Prompt tokens are the server's own count (words and punctuation), not the client's estimate.
 * - Every answer carries `x-ratelimit-{limit,remaining,reset}-{requests,tokens}`; a reset is the
 *   time until that bucket is full again, written as a Go duration (`6m0s`, `1.5s`, `20ms`).
 * - A refusal is `429` with `retry-after-ms` and `retry-after` (whole seconds, rounded up) and a
 *   JSON error body `{ error: { message, type, param, code: 'rate_limit_exceeded' } }`.
 * - `POST /v1/chat/completions` answers a `chat.completion` with `usage` after `latencyMs`; with
 *   `stream: true`, Server-Sent Events instead: `streamChunks` `chat.completion.chunk` events
 *   `streamChunkMs` apart (the last with `usage` when `stream_options.include_usage`), then
 *   `data: [DONE]`. The server counts the streams open at once.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One limit: `limit` units, refilled to full over `windowMs`. */
export interface OpenAILimit {
  limit: number;
  windowMs: number;
}

export interface OpenAIServerOptions {
  requests: OpenAILimit;
  tokens: OpenAILimit;
  /** Completion tokens counted when a request sets no `max_tokens`. @default 1024 */
  defaultMaxTokens?: number;
  /** Time to answer an admitted request. @default 5 */
  latencyMs?: number;
  /** Content events of a streamed completion. @default 4 */
  streamChunks?: number;
  /** Time between a streamed completion's events. @default 10 */
  streamChunkMs?: number;
}

/** What the server counted. */
export interface OpenAIServerCounts {
  answered: number;
  refused: number;
  refusedFor: { requests: number; tokens: number };
  /** Tokens counted for admitted requests. */
  tokensCounted: number;
  /** Most streamed completions open at once. */
  mostStreamsOpen: number;
}

export interface OpenAIServer {
  /** `http://127.0.0.1:port/v1`: the SDK's `baseURL`. */
  baseURL: string;
  counts(): OpenAIServerCounts;
  close(): Promise<void>;
}

/** A Go `time.Duration.String()` of `ms` whole milliseconds: `0s`, `430ms`, `1.5s`, `6m0s`, `1h0m0s`. */
export function goDuration(ms: number): string {
  const whole = Math.max(0, Math.ceil(ms));
  if (whole === 0) return '0s';
  if (whole < 1000) return `${whole}ms`;
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor((whole % 3_600_000) / 60_000);
  const seconds = ((whole % 60_000) / 1000).toFixed(3).replace(/\.?0+$/, '');
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}

/** A bucket refilled continuously to `limit` over `windowMs`. */
class Bucket {
  #level: number;
  #at: number;
  constructor(
    readonly limit: OpenAILimit,
    now: number,
  ) {
    this.#level = limit.limit;
    this.#at = now;
  }
  #perMs(): number {
    return this.limit.limit / this.limit.windowMs;
  }
  level(now: number): number {
    this.#level = Math.min(this.limit.limit, this.#level + (now - this.#at) * this.#perMs());
    this.#at = now;
    return this.#level;
  }
  take(units: number): void {
    this.#level -= units;
  }
  /** ms until `units` are there. */
  waitMs(units: number, now: number): number {
    return Math.max(0, (units - this.level(now)) / this.#perMs());
  }
  /** ms until full. */
  resetMs(now: number): number {
    return (this.limit.limit - this.level(now)) / this.#perMs();
  }
}

const WORD = /\w+|[^\s\w]/g;

/** The server's own prompt count: words and punctuation of every message, plus 3 per message. */
export function promptTokens(messages: unknown): number {
  if (!Array.isArray(messages)) return 0;
  let tokens = 0;
  for (const message of messages) {
    const content = (message as { content?: unknown })?.content;
    const text = typeof content === 'string' ? content : JSON.stringify(content ?? '');
    tokens += 3 + (text.match(WORD)?.length ?? 0);
  }
  return tokens;
}

/** Tokens a request counts when it is admitted: its prompt plus its completion limit. */
export function countedTokens(
  body: { messages?: unknown; max_tokens?: unknown },
  defaultMaxTokens = 1024,
): number {
  const maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : defaultMaxTokens;
  return promptTokens(body.messages) + maxTokens;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof body === 'object' && body !== null ? body : null;
  } catch {
    return null;
  }
}

/** Starts the server on a free loopback port. Its buckets start full when it starts. */
export async function startOpenAIServer(options: OpenAIServerOptions): Promise<OpenAIServer> {
  const now = () => performance.now();
  const requests = new Bucket(options.requests, now());
  const tokens = new Bucket(options.tokens, now());
  const latencyMs = options.latencyMs ?? 5;
  const defaultMaxTokens = options.defaultMaxTokens ?? 1024;
  const counts: OpenAIServerCounts = {
    answered: 0,
    refused: 0,
    refusedFor: { requests: 0, tokens: 0 },
    tokensCounted: 0,
    mostStreamsOpen: 0,
  };
  let served = 0;
  let streamsOpen = 0;
  const streamChunks = options.streamChunks ?? 4;
  const streamChunkMs = options.streamChunkMs ?? 10;

  const limitHeaders = (at: number): Record<string, string> => ({
    'x-ratelimit-limit-requests': String(options.requests.limit),
    'x-ratelimit-limit-tokens': String(options.tokens.limit),
    'x-ratelimit-remaining-requests': String(Math.max(0, Math.floor(requests.level(at)))),
    'x-ratelimit-remaining-tokens': String(Math.max(0, Math.floor(tokens.level(at)))),
    'x-ratelimit-reset-requests': goDuration(requests.resetMs(at)),
    'x-ratelimit-reset-tokens': goDuration(tokens.resetMs(at)),
  });

  const server = createServer(async (req, res) => {
    const id = `req_${++served}`;
    const body = req.method === 'POST' && req.url === '/v1/chat/completions' ? await readJson(req) : null;
    if (body === null) {
      res.writeHead(404, { 'content-type': 'application/json', 'x-request-id': id });
      res.end(JSON.stringify({ error: { message: 'Not found', type: 'invalid_request_error', code: null } }));
      return;
    }
    const maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : defaultMaxTokens;
    const prompt = promptTokens(body.messages);
    const counted = countedTokens(body, defaultMaxTokens);
    const at = now();
    const waitRequests = requests.waitMs(1, at);
    const waitTokens = tokens.waitMs(counted, at);
    if (waitRequests > 0 || waitTokens > 0) {
      const unit = waitTokens >= waitRequests ? 'tokens' : 'requests';
      const waitMs = Math.max(waitRequests, waitTokens);
      counts.refused++;
      counts.refusedFor[unit]++;
      const limit = options[unit].limit;
      const used = Math.round(limit - (unit === 'tokens' ? tokens : requests).level(at));
      const per = unit === 'tokens' ? 'tokens per min (TPM)' : 'requests per min (RPM)';
      res.writeHead(429, {
        'content-type': 'application/json',
        'x-request-id': id,
        'retry-after-ms': String(Math.ceil(waitMs)),
        'retry-after': String(Math.ceil(waitMs / 1000)),
        ...limitHeaders(at),
      });
      res.end(
        JSON.stringify({
          error: {
            message: `Rate limit reached for ${String(body.model)} on ${per}: Limit ${limit}, Used ${used}, Requested ${unit === 'tokens' ? counted : 1}. Please try again in ${goDuration(waitMs)}.`,
            type: unit,
            param: null,
            code: 'rate_limit_exceeded',
          },
        }),
      );
      return;
    }
    requests.take(1);
    tokens.take(counted);
    counts.tokensCounted += counted;
    const headers = limitHeaders(at);
    await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const completion = Math.max(1, Math.floor(maxTokens * 0.9));
    counts.answered++;
    const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
    if (body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': id, ...headers });
      streamsOpen++;
      counts.mostStreamsOpen = Math.max(counts.mostStreamsOpen, streamsOpen);
      res.once('close', () => streamsOpen--);
      const withUsage =
        (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
      for (let i = 0; i < streamChunks && !res.destroyed; i++) {
        const last = i === streamChunks - 1;
        const chunk = {
          id: `chatcmpl-${served}`,
          object: 'chat.completion.chunk',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, delta: { content: `part${i} ` }, finish_reason: last ? 'length' : null }],
          ...(last && withUsage ? { usage } : {}),
        };
        res.write(`data: ${JSON.stringify(chunk)}\n\n`);
        await new Promise((resolve) => setTimeout(resolve, streamChunkMs));
      }
      res.end('data: [DONE]\n\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': id, ...headers });
    res.end(
      JSON.stringify({
        id: `chatcmpl-${served}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          { index: 0, message: { role: 'assistant', content: 'ok', refusal: null }, finish_reason: 'length' },
        ],
        usage,
      }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    counts: () => structuredClone(counts),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

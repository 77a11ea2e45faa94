/**
 * Cost helpers for LLM APIs, whose token window usually binds before the request window.
 *
 * - {@link estimateTokens}: a request's tokens before it is sent, as OpenAI's own guidance
 *   estimates them: the prompt's characters / 4, plus the completion it may produce
 *   (`max_tokens`, `max_completion_tokens` or `max_output_tokens`), which the provider counts
 *   against the window when it admits the request.
 * - {@link llmCost}: that estimate as a `cost` option.
 * - {@link openaiUsage}: what an answered call actually used (`usage.total_tokens`, or Anthropic's
 *   `input_tokens + output_tokens`), as a `settleCost` option.
 */
import { nonNegative, positive } from '../core/validate.js';
import type { Cost } from './cost.js';
import type { RequestDescription } from './request.js';

/** Options of {@link estimateTokens}. */
export interface TokenEstimateOptions {
  /** Characters per token of the prompt. @default 4 (English text, by OpenAI's rule of thumb) */
  charsPerToken?: number;
  /** Completion tokens assumed when the body sets no limit. @default 1024 */
  defaultMaxTokens?: number;
}

/** Body fields that hold the prompt (chat, completions, responses and Anthropic messages APIs). */
const PROMPT_FIELDS = ['messages', 'prompt', 'input', 'system', 'instructions'] as const;
/** Body fields that bound the completion. */
const LIMIT_FIELDS = ['max_tokens', 'max_completion_tokens', 'max_output_tokens'] as const;

/**
 * Characters of every string in `value`: contents, content parts, and roles (they stand in for the
 * per-message overhead). Walked with a stack of its own, not by recursion: a body nested as deep
 * as `JSON.parse` allows is read, never a stack overflow.
 */
function textLength(value: unknown): number {
  let chars = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') chars += item.length;
    else if (typeof item === 'object' && item !== null)
      for (const inner of Array.isArray(item) ? item : Object.values(item)) pending.push(inner);
  }
  return chars;
}

/**
 * Tokens a JSON LLM request counts against a token window: `ceil(prompt characters / charsPerToken)`
 * plus its completion limit, the prompt being every string under `messages`, `prompt`, `input`,
 * `system` and `instructions`. `undefined` when `body` is not a JSON object. Bad options throw
 * `InvalidOptionError` (`charsPerToken` positive, `defaultMaxTokens` not negative, both finite).
 */
export function estimateTokens(
  body: string | undefined,
  options: TokenEstimateOptions = {},
): number | undefined {
  validateEstimate(options);
  return estimate(body, options);
}

/** Validates {@link TokenEstimateOptions}: an `InvalidOptionError` names the one that is wrong. */
function validateEstimate(options: TokenEstimateOptions): void {
  if (options.charsPerToken !== undefined) positive('charsPerToken', options.charsPerToken);
  if (options.defaultMaxTokens !== undefined) nonNegative('defaultMaxTokens', options.defaultMaxTokens);
}

function estimate(body: string | undefined, options: TokenEstimateOptions): number | undefined {
  if (body === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const fields = parsed as Record<string, unknown>;
  const chars = PROMPT_FIELDS.reduce((sum, field) => sum + textLength(fields[field]), 0);
  const limit = LIMIT_FIELDS.map((field) => fields[field]).find(
    (v): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0,
  );
  const prompt = Math.ceil(chars / (options.charsPerToken ?? 4));
  return Math.max(1, prompt + (limit ?? options.defaultMaxTokens ?? 1024));
}

/**
 * A `cost` option for LLM APIs: 1 request and {@link estimateTokens} tokens; a request without a
 * JSON body (a `GET /models`) costs 1 request, and its tokens are learned.
 *
 * @example
 * ```ts
 * const openai = new OpenAI({ fetch: createFetch({ cost: llmCost() }) });
 * ```
 */
export function llmCost(options: TokenEstimateOptions = {}): (request: RequestDescription) => Cost {
  validateEstimate(options);
  return (request) => {
    const tokens = estimate(request.body, options);
    return tokens === undefined ? 1 : { requests: 1, tokens };
  };
}

/** Most bytes {@link openaiUsage} reads: past it, the body is left (an endless or huge body settles nothing). */
const MAX_USAGE_BODY_BYTES = 4 * 1024 * 1024;

/** The body as text, or `undefined` past `limit` bytes (the rest is cancelled). */
async function textUpTo(response: Response, limit: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel();
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * A `settleCost` option: the tokens an answered call used, from its JSON body's `usage`
 * (`total_tokens`, or `input_tokens + output_tokens`). A body that is not JSON (a stream) is
 * left unread, and one over 4 MiB is left after that: either settles nothing.
 */
export async function openaiUsage(response: Response): Promise<Cost | undefined> {
  if (!(response.headers.get('content-type') ?? '').includes('json')) {
    await response.body?.cancel();
    return undefined;
  }
  const text = await textUpTo(response, MAX_USAGE_BODY_BYTES);
  if (text === undefined) return undefined;
  let body: { usage?: Record<string, unknown> } | null;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const usage = body?.usage;
  if (typeof usage !== 'object' || usage === null) return undefined;
  const total =
    typeof usage.total_tokens === 'number'
      ? usage.total_tokens
      : typeof usage.input_tokens === 'number' && typeof usage.output_tokens === 'number'
        ? usage.input_tokens + usage.output_tokens
        : undefined;
  return total === undefined || !(total > 0) ? undefined : { tokens: total };
}

/**
 * One NDJSON result line of `headway batch`, built from a response or an error.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isHeadwayError } from '../errors.js';
import type { BatchRequest } from './batch-input.js';

/** What went wrong, when no response settles the request. */
export interface ResultError {
  /** `HEADWAY_*` for Headway's errors, the system code (`ECONNREFUSED`) for network errors, `HEADWAY_BATCH_MALFORMED_LINE` for bad input. */
  code: string;
  message: string;
}

/** One result line. */
export interface BatchResult {
  /** Input line number (1-based): what resume matches on. */
  line: number;
  method?: string;
  url?: string;
  /** The final response's status; `null` when there was none. */
  status: number | null;
  /** The kept response headers (`--keep-headers`). */
  headers?: Record<string, string>;
  /** The body as text (when it is valid UTF-8) … */
  body?: string;
  /** … else base64 … */
  bodyBase64?: string;
  /** … or the file it was written to (`--bodies DIR`). */
  bodyFile?: string;
  /** Attempts sent (retries included). */
  attempts: number;
  /** ms spent waiting (pacing, gates, backoff) rather than on the network. */
  waitedMs: number;
  error: ResultError | null;
}

/** How responses become results. */
export interface ResultOptions {
  keepHeaders: string[];
  bodies: string | undefined;
}

/** A result is a success: answered 2xx/3xx. */
export function succeeded(result: Pick<BatchResult, 'status' | 'error'>): boolean {
  return result.error === null && result.status !== null && result.status < 400;
}

/** The code and message of a thrown error. */
export function errorOf(error: unknown): ResultError {
  if (isHeadwayError(error)) return { code: error.code, message: error.message };
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : 'HEADWAY_BATCH_FETCH_FAILED';
  const message = error instanceof Error ? error.message : String(error);
  return { code, message: typeof cause?.message === 'string' ? `${message}: ${cause.message}` : message };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The result of `request` answered by `response` (its body is read here). */
export async function responseResult(
  request: BatchRequest,
  response: Response,
  counts: { attempts: number; waitedMs: number },
  options: ResultOptions,
): Promise<BatchResult> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  for (const name of options.keepHeaders) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const result: BatchResult = {
    line: request.line,
    method: request.method,
    url: request.url,
    status: response.status,
    headers,
    attempts: counts.attempts,
    waitedMs: Math.round(counts.waitedMs),
    error: null,
  };
  if (options.bodies !== undefined) {
    const file = join(options.bodies, `${request.line}.body`);
    await writeFile(file, bytes);
    result.bodyFile = file;
  } else {
    try {
      result.body = utf8.decode(bytes);
    } catch {
      result.bodyBase64 = Buffer.from(bytes).toString('base64');
    }
  }
  return result;
}

/** The result of `request` when the call threw `error`. */
export function errorResult(
  request: BatchRequest,
  error: unknown,
  counts: { attempts: number; waitedMs: number },
): BatchResult {
  return {
    line: request.line,
    method: request.method,
    url: request.url,
    status: null,
    attempts: counts.attempts,
    waitedMs: Math.round(counts.waitedMs),
    error: errorOf(error),
  };
}

/** The result of a malformed input line. */
export function malformedResult(line: number, reason: string): BatchResult {
  return {
    line,
    status: null,
    attempts: 0,
    waitedMs: 0,
    error: { code: 'HEADWAY_BATCH_MALFORMED_LINE', message: reason },
  };
}

/**
 * `headway batch <input>`: sends every request of the input through the cooperative client and
 * writes one NDJSON result per input line. Resumable (`--out` is read first and its lines are
 * skipped); the first SIGINT/SIGTERM stops sending, lets the requests already sent finish and be
 * written, and exits 130/143; a second one aborts those too (they run again on resume).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { text as readStream } from 'node:stream/consumers';
import { createFetch } from '../client/create-fetch.js';
import type { RateLimitStore } from '../stores/store.js';
import { type BatchArgs, parseBatchArgs } from './batch-args.js';
import { attemptCounter } from './batch-attempts.js';
import { type BatchRequest, parseInput } from './batch-input.js';
import { readRecorded, resultWriter } from './batch-output.js';
import { startProgress } from './batch-progress.js';
import { type BatchResult, errorResult, malformedResult, responseResult, succeeded } from './batch-result.js';

/** Exit codes of `headway batch`. */
export const batchExitCodes = {
  /** Every request was answered 2xx/3xx. */
  ok: 0,
  /** Done, but some requests failed, were malformed or answered 4xx/5xx. */
  someFailed: 1,
  /** Bad flags, an unreadable input or results file. */
  usage: 2,
  /** Stopped by SIGINT: re-run with the same `--out` to resume. */
  interrupted: 130,
  /** Stopped by SIGTERM: re-run with the same `--out` to resume. */
  terminated: 143,
} as const;

/** A usage or input error: exit 2. */
export class BatchUsageError extends Error {
  override readonly name = 'BatchUsageError';
}

async function usage<T>(step: () => Promise<T> | T): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new BatchUsageError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

interface Shared {
  store: RateLimitStore;
  close(): Promise<void>;
}

/** `make()`, closing the Redis connection when it throws (an open one keeps the process alive). */
async function closingOnError<T>(shared: Shared | undefined, make: () => T): Promise<T> {
  try {
    return make();
  } catch (error) {
    await shared?.close();
    throw error;
  }
}

/** The Redis store of `--redis` (ioredis is an optional peer, loaded only here). */
async function redisShared(url: string): Promise<Shared> {
  const [{ Redis }, { redisStore }] = await Promise.all([import('ioredis'), import('../redis/index.js')]);
  const client = new Redis(url, {
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
  });
  // Errors are reported by the calls that meet them (typed store errors): not as `error` events.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    // It would go on reconnecting (and keep the process alive): one failed connect ends the run.
    client.disconnect();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`--redis ${url}: cannot connect (${reason})`, { cause: error });
  }
  // `quit` waits for what is in flight, but rejects on a connection that is down (and would go on
  // reconnecting, keeping the process alive): then the connection is dropped.
  const close = () =>
    client.quit().then(
      () => {},
      () => client.disconnect(),
    );
  return { store: redisStore({ client }), close };
}

/** Runs `headway batch` with `argv` (after the command name); resolves with the exit code. */
export async function batch(argv: string[]): Promise<number> {
  const args: BatchArgs = await usage(() => parseBatchArgs(argv));
  const input = await usage(() =>
    args.input === '-' ? readStream(process.stdin) : readFile(args.input, 'utf8'),
  );
  const lines = parseInput(input);
  const recorded = await usage(() =>
    args.out === undefined ? { lines: new Set<number>(), failed: 0 } : readRecorded(args.out),
  );
  if (args.bodies !== undefined) await usage(() => mkdir(args.bodies as string, { recursive: true }));
  const writer = await usage(() => resultWriter(args.out));
  const shared = args.redis === undefined ? undefined : await usage(() => redisShared(args.redis as string));
  const fixedKey = args.key;
  const counter = attemptCounter();
  const fetch = await usage(() =>
    closingOnError(shared, () =>
      createFetch({
        profile: 'batch',
        rate: args.rate,
        burst: args.burst,
        maxConcurrent: args.concurrency,
        maxRetryAfterMs: args.maxRetryAfterMs,
        key: fixedKey === undefined ? undefined : () => fixedKey,
        store: shared?.store,
        expectedWorkers: args.workers,
        fetch: counter.transport,
      }),
    ),
  );

  let done = 0;
  let failed = recorded.failed;
  const record = (result: BatchResult) => {
    writer.write(result);
    done++;
    if (!succeeded(result)) failed++;
  };
  const pending: BatchRequest[] = [];
  let total = 0;
  for (const line of lines) {
    if (line === null) continue;
    total++;
    if (recorded.lines.has(line.line)) continue;
    if (line.kind === 'request') pending.push(line);
    else {
      process.stderr.write(`headway batch: line ${line.line}: malformed, skipped: ${line.reason}\n`);
      record(malformedResult(line.line, line.reason));
    }
  }
  const before = total - pending.length - done;

  let rateLimited = 0;
  fetch.onRateLimited(() => {
    rateLimited++;
  });
  const learnedRate = () => {
    let sum = 0;
    for (const s of fetch.stats()) sum += s.learned.rate ?? 0;
    return sum > 0 ? sum / args.workers : null;
  };
  const progress = startProgress(total);
  let rate: number | null = null;
  const show = () => progress.update({ done: before + done, before, total, rateLimited, rate });
  const ticker = setInterval(() => {
    rate = learnedRate();
    show();
  }, 500);

  // Stopping: the first signal stops sending (requests waiting to be sent, or to be sent again,
  // are aborted and run again on resume; those with the server finish); a second one aborts what
  // is in flight too.
  let stoppedBy: NodeJS.Signals | undefined;
  /** Each call under way, and whether it is waiting (to be sent, or sent again), not with the server or read. */
  const active = new Map<AbortController, () => boolean>();
  const onSignal = (signal: NodeJS.Signals) => {
    const first = stoppedBy === undefined;
    stoppedBy ??= signal;
    for (const [controller, waiting] of active) if (!first || waiting()) controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const send = (request: BatchRequest) =>
    counter.track(async (counts) => {
      const controller = new AbortController();
      let answered = false;
      active.set(controller, () => !answered && !counts.sending);
      try {
        const response = await fetch(request.url, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          signal: controller.signal,
        });
        answered = true;
        return await responseResult(request, response, counts, args);
      } catch (error) {
        if (controller.signal.aborted) return null;
        counter.waitEnded();
        return errorResult(request, error, counts);
      } finally {
        active.delete(controller);
      }
    });

  let next = 0;
  const runner = async () => {
    // Until a signal, or the results can no longer be written (nothing more is sent then).
    while (stoppedBy === undefined && !writer.failed && next < pending.length) {
      const result = await send(pending[next++] as BatchRequest);
      if (result) {
        record(result);
        show();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(args.concurrency, pending.length) }, runner));
  } finally {
    clearInterval(ticker);
    show();
    progress.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    try {
      await writer.close();
    } finally {
      // Also when the results could not be written: an open Redis connection keeps the process alive.
      await shared?.close();
    }
  }
  process.stderr.write(
    `headway batch: ${done} written, ${before} done before, ${total - before - done} left, ${failed} not ok, ${rateLimited} rate-limited answers\n`,
  );
  if (stoppedBy === 'SIGINT') return batchExitCodes.interrupted;
  if (stoppedBy) return batchExitCodes.terminated;
  return failed > 0 ? batchExitCodes.someFailed : batchExitCodes.ok;
}

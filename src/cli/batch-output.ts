/**
 * The results file of `headway batch`: what an earlier run already recorded (to resume), and an
 * appender that writes one whole NDJSON line per result.
 */
import { open, readFile, truncate } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { type BatchResult, succeeded } from './batch-result.js';

/** Lines an earlier run recorded, and how many of them did not succeed. */
export interface Recorded {
  lines: Set<number>;
  failed: number;
}

/** How every result line starts (`JSON.stringify` of a result puts `line` first). */
const RESULT_START = '{"line":';

/**
 * Reads `path` (missing: nothing recorded). Every whole line must be a result, else the file is
 * refused as it is; then a last line cut short by a crash (the start of a result) is removed, so
 * the file stays valid NDJSON and that request runs again.
 */
export async function readRecorded(path: string): Promise<Recorded> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lines: new Set(), failed: 0 };
    throw error;
  }
  const notResults = (row: string) =>
    new Error(`${path} is not a results file: it holds a line that is not a result: ${row.slice(0, 80)}`);
  const end = text.lastIndexOf('\n') + 1;
  const tail = text.slice(end);
  if (tail !== '' && !tail.startsWith(RESULT_START)) throw notResults(tail);
  const lines = new Set<number>();
  let failed = 0;
  for (const row of text.slice(0, end).split('\n')) {
    if (row === '') continue;
    let result: BatchResult;
    try {
      result = JSON.parse(row) as BatchResult;
    } catch {
      throw notResults(row);
    }
    if (!Number.isInteger(result?.line)) throw notResults(row);
    lines.add(result.line);
    if (!succeeded(result)) failed++;
  }
  // Only now, the file known to be results: the cut-short last line goes.
  if (tail !== '') await truncate(path, Buffer.byteLength(text.slice(0, end)));
  return { lines, failed };
}

/** Appends results, one whole line per `write`. */
export interface ResultWriter {
  /** Writes one result; nothing once a write has failed. */
  write(result: BatchResult): void;
  /** A write failed (the file, or stdout whose reader went away): sending more is pointless. */
  readonly failed: boolean;
  /** Flushes and closes (stdout is flushed, not closed); rejects with the first write error. */
  close(): Promise<void>;
}

/**
 * A writer that appends to `path`, or writes to stdout without one. The file is opened before it
 * resolves, so a path that cannot be opened fails before anything is sent; a later write error
 * (on the file, or `EPIPE` on stdout piped to a reader that went away) fails `close()`.
 */
export async function resultWriter(path: string | undefined): Promise<ResultWriter> {
  const stream: Writable = path === undefined ? process.stdout : (await open(path, 'a')).createWriteStream();
  let failure: Error | undefined;
  const onError = (error: Error) => {
    failure ??= error;
  };
  stream.on('error', onError);
  return {
    write: (result) => {
      if (failure === undefined) stream.write(`${JSON.stringify(result)}\n`);
    },
    get failed() {
      return failure !== undefined;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        const settle = () => {
          if (path === undefined) stream.off('error', onError);
          if (failure) reject(failure);
          else resolve();
        };
        if (path === undefined) {
          if (failure || stream.destroyed) settle();
          else stream.write('', settle);
        } else stream.end(settle);
      }),
  };
}

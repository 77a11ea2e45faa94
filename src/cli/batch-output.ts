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

/**
 * Reads `path` (missing: nothing recorded). A last line cut short by a crash is removed, so the
 * file stays valid NDJSON and that request runs again.
 */
export async function readRecorded(path: string): Promise<Recorded> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lines: new Set(), failed: 0 };
    throw error;
  }
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) {
    await truncate(path, Buffer.byteLength(text.slice(0, end)));
    text = text.slice(0, end);
  }
  const lines = new Set<number>();
  let failed = 0;
  for (const row of text.split('\n')) {
    if (row === '') continue;
    const result = JSON.parse(row) as BatchResult;
    if (!Number.isInteger(result.line))
      throw new Error(`${path} holds a line that is not a result: ${row.slice(0, 80)}`);
    lines.add(result.line);
    if (!succeeded(result)) failed++;
  }
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

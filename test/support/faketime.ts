/**
 * Debian's libfaketime for the real-process clock steps: a child process preloads it and reads a
 * time offset from a file that the test rewrites, so the child's clock steps while it runs.
 * Without the library (or on a Node line it does not reach) the checks skip, saying so once.
 *
 * What it fakes, measured on Node 22, 24 and 26 with libfaketime 0.9.10: `Date.now()` always;
 * `performance.now()` and libuv's timer clock (CLOCK_MONOTONIC) too unless
 * `FAKETIME_DONT_FAKE_MONOTONIC=1`. A *backward* step of the monotonic clock aborts Node itself
 * (`Assertion failed: (now) >= (timer_base())` in `Environment::GetNowUint64`) on the next
 * `setTimeout`; Linux never steps CLOCK_MONOTONIC back, so a backward step is a wall-clock step.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The thread-safe build of the library (Node runs threads), or `FAKETIME_LIBRARY` if set. */
function findLibrary(): string | undefined {
  const given = process.env.FAKETIME_LIBRARY;
  if (given) return existsSync(given) ? given : undefined;
  for (const dir of ['/usr/lib', '/usr/local/lib', '/usr/lib64']) {
    let entries: string[] = [];
    try {
      entries = readdirSync(dir);
    } catch {
      continue;
    }
    for (const sub of ['', ...entries]) {
      const path = join(dir, sub, 'faketime', 'libfaketimeMT.so.1');
      if (existsSync(path)) return path;
    }
  }
  return undefined;
}

/**
 * Removes the shared memory and semaphore (`/dev/shm/faketime_shm_<pid>`, `sem.faketime_sem_<pid>`)
 * that libfaketime 0.9.10 creates in each process it is preloaded into and may leave behind; call
 * it once the child `pid` has exited.
 */
export function releaseFaketime(pid: number | undefined): void {
  if (pid === undefined) return;
  for (const name of [`faketime_shm_${pid}`, `sem.faketime_sem_${pid}`])
    rmSync(join('/dev/shm', name), { force: true });
}

/** A file of one libfaketime offset (`+0`, `-3600`, `+86400` seconds), replaced atomically. */
export class ClockFile {
  readonly #dir = mkdtempSync(join(tmpdir(), 'headway-faketime-'));
  readonly path = join(this.#dir, 'offset');

  constructor() {
    this.step(0);
  }

  /** From the child's next clock reading on, its clock reads real time + `offsetMs` (whole seconds). */
  step(offsetMs: number): void {
    const next = `${this.path}.next`;
    writeFileSync(next, `${offsetMs < 0 ? '-' : '+'}${Math.abs(Math.round(offsetMs / 1000))}\n`);
    renameSync(next, this.path);
  }

  /** Environment for a child under this clock; `monotonic` also steps its monotonic clock. */
  env(library: string, monotonic: boolean): NodeJS.ProcessEnv {
    return {
      ...process.env,
      LD_PRELOAD: library,
      FAKETIME_TIMESTAMP_FILE: this.path,
      FAKETIME_NO_CACHE: '1', // re-read the file on every clock reading: a step applies at once
      FAKETIME_DONT_FAKE_MONOTONIC: monotonic ? '0' : '1',
    };
  }

  remove(): void {
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

/** Whether a child of this Node with the library preloaded reads a clock a day ahead. */
function reachesNode(library: string): boolean {
  const file = new ClockFile();
  try {
    file.step(86_400_000);
    const probe = spawnSync(process.execPath, ['-p', 'Date.now()'], {
      env: file.env(library, false),
      encoding: 'utf8',
      timeout: 10_000,
    });
    releaseFaketime(probe.pid);
    return Math.abs(Number(probe.stdout) - (Date.now() + 86_400_000)) < 600_000;
  } finally {
    file.remove();
  }
}

/** The library when it works for this Node, else `undefined` (after printing one line why). */
export function faketimeLibrary(): string | undefined {
  const library = findLibrary();
  if (!library) {
    console.warn(
      'clock-step process checks skipped: no libfaketime (apt-get install faketime, or set FAKETIME_LIBRARY)',
    );
    return undefined;
  }
  if (!reachesNode(library)) {
    console.warn(
      `clock-step process checks skipped: libfaketime (${library}) does not reach Node ${process.version}`,
    );
    return undefined;
  }
  return library;
}

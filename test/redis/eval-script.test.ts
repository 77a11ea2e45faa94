/**
 * `evalScript`'s timeout against a busy process: a reply that reached the socket while the event
 * loop was blocked is read before the timeout's verdict, so it is not reported as a timeout.
 * Real time and a real socket, so this runs in the `contract` project.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evalScript } from '../../src/redis/eval-script.js';
import { defineScript } from '../../src/redis/lua-script.js';
import type { RedisScriptClient } from '../../src/redis/redis-client.js';

let echo: ChildProcess;
let socket: Socket;
const dir = mkdtempSync(join(tmpdir(), 'headway-eval-'));
/** Created by the echo server once it has handed its reply to the kernel. */
const replied = join(dir, 'replied');

beforeAll(async () => {
  // A loopback server in another process that answers every line at once: the reply arrives as
  // socket I/O while this process is blocked.
  echo = spawn(
    process.execPath,
    [
      '-e',
      `const s = require('node:net').createServer((c) => c.on('data', (d) =>
         c.write(d, () => require('node:fs').writeFileSync(process.argv[1], ''))));
       s.listen(0, '127.0.0.1', () => console.log(s.address().port));`,
      replied,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [line] = (await once(echo.stdout!, 'data')) as [Buffer];
  socket = createConnection({ host: '127.0.0.1', port: Number(line.toString()) });
  await once(socket, 'connect');
});
afterAll(async () => {
  socket.destroy();
  echo.kill();
  await once(echo, 'exit');
  rmSync(dir, { recursive: true, force: true });
});

/** A script client whose reply comes back over the loopback socket. */
const overSocket: RedisScriptClient = {
  evalsha: () =>
    new Promise((resolve) => {
      socket.once('data', () => resolve(1));
      socket.write('EVALSHA\n');
    }),
  eval: () => Promise.reject(new Error('not used')),
};

/**
 * Blocks the event loop (a busy process: GC, a compile, a starved CPU) until the echo server has
 * replied and at least `ms` have passed, however long the other process takes to be scheduled.
 */
function blockUntilRepliedAnd(ms: number): void {
  const started = performance.now();
  while (!existsSync(replied) || performance.now() - started < ms) {
    if (performance.now() - started > 10_000) throw new Error('the echo server did not reply within 10 s');
  }
}

describe('evalScript on a busy process', () => {
  it('a reply that arrived while the event loop was blocked past the timeout is not a timeout', async () => {
    const script = defineScript('one', 'return 1');
    const pending = evalScript(overSocket, script, ['k'], [], 20, 'k');
    blockUntilRepliedAnd(60); // the reply is in the socket, and the 20 ms timer is due, before the loop is free
    await expect(pending).resolves.toBe(1);
  });

  it('a reply that never comes is still a timeout', async () => {
    const silent: RedisScriptClient = {
      evalsha: () => new Promise(() => {}),
      eval: () => new Promise(() => {}),
    };
    // Nothing but the 20 ms timer can settle this call; a missing timer fails the test by its timeout.
    await expect(
      evalScript(silent, defineScript('one', 'return 1'), ['k'], [], 20, 'k'),
    ).rejects.toMatchObject({ code: 'HEADWAY_STORE_TIMEOUT', timeoutMs: 20 });
  });
});

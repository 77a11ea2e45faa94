/**
 * `evalScript`'s timeout against a busy process: a reply that reached the socket while the event
 * loop was blocked is read before the timeout's verdict, so it is not reported as a timeout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createConnection, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evalScript } from '../../src/redis/eval-script.js';
import { defineScript } from '../../src/redis/lua-script.js';
import type { RedisScriptClient } from '../../src/redis/redis-client.js';

let echo: ChildProcess;
let socket: Socket;

beforeAll(async () => {
  // A loopback server in another process that answers every line at once: the reply arrives as
  // socket I/O while this process is blocked.
  echo = spawn(
    process.execPath,
    [
      '-e',
      `const s = require('node:net').createServer((c) => c.on('data', (d) => c.write(d)));
       s.listen(0, '127.0.0.1', () => console.log(s.address().port));`,
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

function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // a busy process: GC, a compile, a starved CPU
  }
}

describe('evalScript on a busy process', () => {
  it('a reply that arrived while the event loop was blocked past the timeout is not a timeout', async () => {
    const script = defineScript('one', 'return 1');
    const pending = evalScript(overSocket, script, ['k'], [], 20, 'k');
    blockFor(150); // the reply arrives at once; the 20 ms timer is due long before the loop is free
    await expect(pending).resolves.toBe(1);
  });

  it('a reply that never comes is still a timeout', async () => {
    const silent: RedisScriptClient = {
      evalsha: () => new Promise(() => {}),
      eval: () => new Promise(() => {}),
    };
    const started = performance.now();
    await expect(
      evalScript(silent, defineScript('one', 'return 1'), ['k'], [], 20, 'k'),
    ).rejects.toMatchObject({
      code: 'HEADWAY_STORE_TIMEOUT',
    });
    expect(performance.now() - started).toBeLessThan(200);
  });
});

/**
 * A private `redis-server` for tests and benchmarks: loopback only, a free port in 21000–21999,
 * no persistence, stopped by pid. The ports lie below Linux's ephemeral range (32768–60999), which
 * every port-0 listener and outgoing connection of the suite draws from: a restart on the same
 * port (the fault tests) cannot find it taken by another test's socket meanwhile. Fails loudly when redis-server is not installed.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createConnection, createServer } from 'node:net';

const HOST = '127.0.0.1';
const PORT_LOW = 21000;
const PORT_HIGH = 21999;

/** A redis-server this process started. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** pid of the running server (changes on {@link RedisServer.restart}). */
  pid(): number | undefined;
  /** SIGKILL the server (no goodbye to clients) and wait for it to exit. */
  kill(): Promise<void>;
  /** Start a fresh server (empty data and script cache) on the same port. */
  restart(): Promise<void>;
  /** SIGTERM the server and wait for it to exit. */
  stop(): Promise<void>;
  /** SIGSTOP the server: connections stay open, nothing is answered (a hanging Redis). */
  pause(): void;
  /** SIGCONT a paused server: it answers what queued up meanwhile. */
  resume(): void;
}

/** True when `redis-server` can be run. */
export function redisServerInstalled(): boolean {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return !probe.error && probe.status === 0;
}

/** Throws a clear error unless `redis-server` can be run. */
export function assertRedisServerInstalled(): void {
  if (!redisServerInstalled()) {
    throw new Error(
      'redis-server is not installed, so the Redis tests cannot run. Install it (`apt-get install -y redis-server`) or point REDIS_URL at a Redis.',
    );
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, HOST, () => probe.close(() => resolve(true)));
  });
}

/** A free loopback port in 21000–21999 (bounded number of tries). */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = PORT_LOW + Math.floor(Math.random() * (PORT_HIGH - PORT_LOW + 1));
    if (await portIsFree(port)) return port;
  }
  throw new Error(`No free port in ${PORT_LOW}–${PORT_HIGH}`);
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: HOST, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(200, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

async function waitUntilUp(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`redis-server on port ${port} exited with ${child.exitCode}`);
    if (await ping(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within 5 s`);
}

function launch(port: number, extraArgs: readonly string[]): ChildProcess {
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      HOST,
      '--save',
      '',
      '--appendonly',
      'no',
      '--loglevel',
      'warning',
      ...extraArgs,
    ],
    { stdio: 'ignore' },
  );
  child.on('error', () => undefined);
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Launches on `port`, or on free ports until one binds: another process may take a port between check and bind. */
async function launchOnFreePort(
  port: number | undefined,
  extraArgs: (port: number) => readonly string[],
): Promise<{ chosen: number; child: ChildProcess }> {
  for (let attempt = 1; ; attempt++) {
    const chosen = port ?? (await freePort());
    const child = launch(chosen, extraArgs(chosen));
    try {
      await waitUntilUp(chosen, child);
      return { chosen, child };
    } catch (error) {
      if (port !== undefined || child.exitCode === null || attempt >= 5) throw error;
    }
  }
}

/**
 * Starts a private redis-server on a free port (or on `port`) and waits until it answers.
 * `extraArgs(port)` adds command-line options (a cluster node's, for example).
 */
export async function startRedisServer(
  port?: number,
  extraArgs: (port: number) => readonly string[] = () => [],
): Promise<RedisServer> {
  assertRedisServerInstalled();
  const launched = await launchOnFreePort(port, extraArgs);
  const chosen = launched.chosen;
  let child = launched.child;
  const signal = async (name: NodeJS.Signals) => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid, name);
      await exited(child);
    }
  };
  return {
    port: chosen,
    url: `redis://${HOST}:${chosen}`,
    pid: () => child.pid,
    kill: () => signal('SIGKILL'),
    stop: async () => {
      // A stopped process acts on SIGTERM only once it runs again.
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
        process.kill(child.pid, 'SIGCONT');
      await signal('SIGTERM');
    },
    pause: () => {
      if (child.pid !== undefined) process.kill(child.pid, 'SIGSTOP');
    },
    resume: () => {
      if (child.pid !== undefined) process.kill(child.pid, 'SIGCONT');
    },
    async restart() {
      await signal('SIGKILL');
      child = launch(chosen, extraArgs(chosen));
      await waitUntilUp(chosen, child);
    },
  };
}

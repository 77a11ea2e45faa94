/**
 * S9's cases over a stub socket: CPU µs per response of each case's request listener in one
 * process, with no syscalls, no load generator and no other process in the way, so a difference of
 * a fraction of a µs shows where S9's requests/s and server CPU swing by more. Each pass sends
 * `requests` keep-alive GETs over `sockets` in-memory sockets (the next request on a socket when its
 * response has finished); the cases' passes alternate (A B … B A), and each case's figure is the
 * median of its passes, each other case's also as the median of its paired differences to the first.
 *
 *   node --import tsx bench/s9-stub.ts hono,hono+floor,hono+headway [passes] [requests]
 */
import { createServer, type RequestListener } from 'node:http';
import { Duplex } from 'node:stream';
import { fixed, median } from './lib/stats.js';
import { type S9Case, s9Cases, s9Listener } from './s9-http-server.js';

const request = Buffer.from(
  'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: s9-stub\r\nAccept: */*\r\n\r\n',
);

/** Runs `requests` GETs through `listener` over `sockets` stub sockets; resolves with CPU µs per response. */
function pass(listener: RequestListener, requests: number, sockets: number): Promise<number> {
  const server = createServer(listener);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let done = 0;
    const start = process.cpuUsage();
    const open: Duplex[] = [];
    const send = (socket: Duplex) => {
      if (sent >= requests) return;
      sent++;
      socket.push(request);
    };
    server.on('request', (req, res) => {
      const socket = req.socket as Duplex;
      res.once('finish', () => {
        if (++done === requests) {
          const { user, system } = process.cpuUsage(start);
          for (const s of open) s.destroy();
          resolve((user + system) / requests);
        } else send(socket);
      });
    });
    for (let i = 0; i < sockets; i++) {
      const socket = new Duplex({
        read() {},
        write(_chunk, _encoding, callback) {
          callback();
        },
      });
      Object.defineProperty(socket, 'remoteAddress', { value: '127.0.0.1' });
      socket.on('error', reject);
      open.push(socket);
      server.emit('connection', socket);
      send(socket);
    }
  });
}

const names = (process.argv[2] ?? '').split(',').filter(Boolean) as S9Case[];
for (const name of names) if (!s9Cases.includes(name)) throw new Error(`unknown case ${name}`);
if (names.length === 0) throw new Error(`usage: s9-stub.ts <${s9Cases.join(',')}> [passes] [requests]`);
const once = process.argv[3] === 'once';
const passes = once ? 0 : Number(process.argv[3] ?? 60);
const requests = Number(process.argv[4] ?? 400);
const listeners = names.map(s9Listener);
// `once`: one pass of each case, no warm-up, nothing printed (for instruction counts under cachegrind).
if (once) {
  for (const listener of listeners) await pass(listener, requests, 4);
  process.exit(0);
}
// Warm-up: JIT every case's path.
for (let i = 0; i < 20; i++) for (const listener of listeners) await pass(listener, requests, 4);
const cpu = names.map(() => [] as number[]);
for (let p = 0; p < passes; p++) {
  const order = p % 2 === 0 ? names.map((_, i) => i) : names.map((_, i) => names.length - 1 - i);
  for (const i of order) cpu[i]!.push(await pass(listeners[i]!, requests, 4));
}
for (const [i, name] of names.entries()) {
  const diffs = cpu[i]!.map((v, p) => v - cpu[0]![p]!);
  const sorted = [...diffs].sort((a, b) => a - b);
  const q = (f: number) => sorted[Math.floor(f * (sorted.length - 1))]!;
  process.stdout.write(
    `${name.padEnd(18)} ${fixed(median(cpu[i]!), 2)} µs/resp` +
      (i === 0
        ? ''
        : `  − ${names[0]}: ${fixed(median(diffs), 2)} (quartiles ${fixed(q(0.25), 2)} to ${fixed(q(0.75), 2)})`) +
      '\n',
  );
}

/**
 * S9 (server, whole HTTP path): requests/s of a framework answering `{"ok":true}`, bare and behind
 * Headway's adapter for it, loaded by autocannon (its CLI, in its own process) over loopback. Each
 * case is its own server process; every rep runs each pair bare/limited in alternating order, so
 * the ratio compares the two under the same machine load. express-rate-limit on the same Express
 * app is measured for scale; an empty middleware on Hono and Express (what one middleware costs
 * those frameworks before it does anything); and, for node:http, the fetch handler and Hono, the
 * floor of any limiter: the same header fields put on the response the cheapest way known, with
 * the client address and API key read, and nothing decided (see s9-http-server.ts); and a Hono
 * app's `fetch` wrapped in `withRateLimit`, the same limiter without a middleware layer.
 *
 *   npm run bench -- --scenario S9 --no-write
 *   npm run bench -- --scenario S9 --kind fetch,hono --no-write   # only those apps' pairs
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import type { Report } from './lib/report.js';
import { fixed, int, median } from './lib/stats.js';
import type { S9Case } from './s9-http-server.js';

const run = promisify(execFile);
const autocannon = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

export interface S9Options {
  reps: number;
  /** Seconds of load per measurement. */
  seconds: number;
  connections: number;
  /** Only the pairs of these bare apps (`node`, `fetch`, `hono`, `express`; `--kind`); all when none is one. */
  apps?: readonly string[];
}

interface Pair {
  name: string;
  bare: S9Case;
  limited: S9Case;
  target: number;
}

const allPairs: Pair[] = [
  { name: 'node:http + nodeRateLimit', bare: 'node', limited: 'node+headway', target: 0.85 },
  { name: 'node:http + the same headers only (floor)', bare: 'node', limited: 'node+floor', target: 0 },
  { name: 'fetch handler + withRateLimit', bare: 'fetch', limited: 'fetch+headway', target: 0.9 },
  { name: 'fetch handler + the same headers only (floor)', bare: 'fetch', limited: 'fetch+floor', target: 0 },
  { name: 'Hono + honoRateLimit', bare: 'hono', limited: 'hono+headway', target: 0.9 },
  { name: 'Hono + an empty middleware', bare: 'hono', limited: 'hono+empty', target: 0 },
  { name: 'Hono + the same headers only (floor)', bare: 'hono', limited: 'hono+floor', target: 0 },
  { name: 'Hono app.fetch in withRateLimit', bare: 'hono', limited: 'hono+fetch-wrap', target: 0 },
  { name: 'Express + expressRateLimit', bare: 'express', limited: 'express+headway', target: 0.9 },
  { name: 'Express + an empty middleware', bare: 'express', limited: 'express+empty', target: 0 },
  { name: 'Express + express-rate-limit (peer)', bare: 'express', limited: 'express+erl', target: 0 },
];

interface Server {
  child: ChildProcess;
  port: number;
  /** The server process's CPU µs and requests served so far. */
  usage(): Promise<{ cpuUs: number; requests: number }>;
}

async function startCase(name: S9Case): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/s9-http-server.ts', name], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting: ((line: string) => void)[] = [];
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (let end = out.indexOf('\n'); end >= 0; end = out.indexOf('\n')) {
      const line = out.slice(0, end);
      out = out.slice(end + 1);
      waiting.shift()?.(line);
    }
  });
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  const port = await new Promise<number>((resolve, reject) => {
    next().then((line) => resolve(JSON.parse(line).port), reject);
    child.once('exit', (code) => reject(new Error(`S9 server ${name} exited with ${code}`)));
  });
  const usage = async () => {
    const line = next();
    child.stdin!.write('\n');
    return JSON.parse(await line) as { cpuUs: number; requests: number };
  };
  return { child, port, usage };
}

/** Requests/s (2xx only) from one autocannon run against `port`. */
async function load(port: number, seconds: number, connections: number): Promise<number> {
  const { stdout } = await run(
    process.execPath,
    [autocannon, '-j', '-c', String(connections), '-d', String(seconds), `http://127.0.0.1:${port}/`],
    { maxBuffer: 1 << 24, timeout: (seconds + 30) * 1000 },
  );
  const result = JSON.parse(stdout) as { '2xx': number; non2xx: number; errors: number; duration: number };
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`S9: ${result.non2xx} non-2xx answers and ${result.errors} errors on port ${port}`);
  return result['2xx'] / result.duration;
}

export async function runS9(report: Report, o: S9Options): Promise<void> {
  // `--kind` also names S6's server kinds: only the names of S9 apps narrow S9.
  const apps = (o.apps ?? []).filter((a) => allPairs.some((p) => p.bare === a));
  const pairs = allPairs.filter((p) => apps.length === 0 || apps.includes(p.bare));
  const names = [...new Set(pairs.flatMap((p) => [p.bare, p.limited]))];
  const servers = new Map<S9Case, Server>();
  try {
    for (const name of names) servers.set(name, await startCase(name));
    // Warm-up: JIT and connection setup of every server, not measured.
    for (const name of names) await load(servers.get(name)!.port, 1, o.connections);
    const rates = new Map<S9Case, number[]>();
    const ratios = new Map<string, number[]>();
    const cpu = new Map<S9Case, number[]>();
    /** Requests/s of one run, and the server's CPU µs per request during it. */
    const measure = async (name: S9Case) => {
      const server = servers.get(name)!;
      const before = await server.usage();
      const rate = await load(server.port, o.seconds, o.connections);
      const after = await server.usage();
      const perRequest = (after.cpuUs - before.cpuUs) / (after.requests - before.requests);
      cpu.set(name, [...(cpu.get(name) ?? []), perRequest]);
      return rate;
    };
    for (let rep = 0; rep < o.reps; rep++) {
      for (const pair of pairs) {
        const order = rep % 2 === 0 ? [pair.bare, pair.limited] : [pair.limited, pair.bare];
        const seen: Partial<Record<S9Case, number>> = {};
        for (const name of order) {
          const rate = await measure(name);
          seen[name] = rate;
          rates.set(name, [...(rates.get(name) ?? []), rate]);
        }
        const ratio = seen[pair.limited]! / seen[pair.bare]!;
        ratios.set(pair.name, [...(ratios.get(pair.name) ?? []), ratio]);
        process.stderr.write(
          `  S9 ${pair.name.padEnd(36)} bare ${int(seen[pair.bare]!)}/s, limited ${int(seen[pair.limited]!)}/s = ${fixed(ratio, 2)}×; CPU µs/req ${fixed(cpu.get(pair.bare)!.at(-1)!, 1)} → ${fixed(cpu.get(pair.limited)!.at(-1)!, 1)}\n`,
        );
      }
    }
    const cpuOf = (name: S9Case) => median(cpu.get(name)!);
    report.table(
      `S9: whole HTTP path, requests/s (autocannon, ${o.connections} connections, ${o.seconds} s per run)`,
      `Medians of ${o.reps} rep(s); the ratio is the median of each rep's limited ÷ bare (measured back to back, order alternating). Each server is its own process; autocannon runs in another (on 2 cores the generator, not the server, is often the bottleneck, so also the server's own CPU per request: the limiter's added cost is the difference). Headway: default key (client IP), IETF headers, a limit never reached. Fetch handler and Hono are served by @hono/node-server.`,
      ['app', 'bare req/s', 'limited req/s', 'limited ÷ bare', 'range', 'server CPU µs/req bare → limited'],
      pairs.map((p) => {
        const r = ratios.get(p.name)!;
        return [
          p.target ? `**${p.name}**` : p.name,
          int(median(rates.get(p.bare)!)),
          int(median(rates.get(p.limited)!)),
          `${fixed(median(r), 2)}×`,
          `${fixed(Math.min(...r), 2)}–${fixed(Math.max(...r), 2)}`,
          `${fixed(cpuOf(p.bare), 1)} → ${fixed(cpuOf(p.limited), 1)} (+${fixed(cpuOf(p.limited) - cpuOf(p.bare), 1)})`,
        ];
      }),
    );
    for (const pair of pairs.filter((p) => p.target > 0)) {
      const ratio = median(ratios.get(pair.name)!);
      const erlRatios = ratios.get(allPairs.at(-1)!.name);
      const floorNote = pairs
        .filter((p) => p.bare === pair.bare && (p.limited.endsWith('+empty') || p.limited.endsWith('+floor')))
        .map(
          (p) =>
            `${p.limited.endsWith('+floor') ? 'floor (the same headers only)' : 'empty middleware'} ${fixed(median(ratios.get(p.name)!), 2)}× bare`,
        )
        .join(', ');
      report.verdict({
        scenario: 'S9',
        row: `S9 ${pair.name}`,
        headway: `${fixed(ratio, 2)}× bare (+${fixed(cpuOf(pair.limited) - cpuOf(pair.bare), 1)} µs CPU/req)`,
        bestPeer:
          [
            erlRatios && pair.bare === 'express'
              ? `express-rate-limit ${fixed(median(erlRatios), 2)}× bare`
              : '',
            floorNote,
          ]
            .filter(Boolean)
            .join(', ') || '—',
        target: `≥ ${pair.target}× the bare server`,
        pass: ratio >= pair.target,
        ...(ratio >= pair.target ? {} : { note: `${fixed(ratio, 2)}×` }),
      });
    }
  } finally {
    for (const { child } of servers.values()) child.kill();
  }
}

/**
 * S9 (server, whole HTTP path): requests/s of a framework answering `{"ok":true}`, bare and behind
 * Headway's adapter for it, loaded by autocannon over loopback from one load process of its own
 * (s9-load.ts). Each case is its own server process. Every rep measures each app's bare server
 * before and after each of its other cases (bare, A, bare, B, …, bare; the cases' order reversed
 * every other rep), and a case's ratio is its requests/s over the mean of the two bare runs either
 * side of it: a drift of the machine's load over the three runs cancels to first order, and each
 * bare run serves two ratios. express-rate-limit on the same Express
 * app is measured for scale; an empty middleware on Hono and Express (what one middleware costs
 * those frameworks before it does anything); and, for node:http, the fetch handler, Hono and Express, the
 * floor of any limiter: the same header fields put on the response the cheapest way known, with
 * the client address and API key read, and nothing decided (see s9-http-server.ts); a Hono
 * app's `fetch` wrapped in `withRateLimit`, the same limiter without a middleware layer; and, for
 * every app, the bare app again in a second process (A/A): what this schedule reads between two
 * identical servers, the resolution of every other row. Runs are short (half a second by default)
 * and many, so the two bare runs either side of a case are close in time: on a shared machine the
 * server's speed drifts by tens of per cent over tens of seconds.
 *
 *   npm run bench -- --scenario S9 --no-write
 *   npm run bench -- --scenario S9 --kind fetch,hono --no-write   # only those apps' pairs
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Report } from './lib/report.js';
import { fixed, int, median } from './lib/stats.js';
import type { S9Case } from './s9-http-server.js';

export interface S9Options {
  reps: number;
  /** Milliseconds of load per measurement (autocannon ends it on its next 100 ms tick). */
  ms: number;
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
  { name: 'node:http A/A (the bare server again)', bare: 'node', limited: 'node+copy', target: 0 },
  { name: 'fetch handler + withRateLimit', bare: 'fetch', limited: 'fetch+headway', target: 0.9 },
  { name: 'fetch handler + the same headers only (floor)', bare: 'fetch', limited: 'fetch+floor', target: 0 },
  { name: 'fetch handler A/A (the bare server again)', bare: 'fetch', limited: 'fetch+copy', target: 0 },
  { name: 'Hono + honoRateLimit', bare: 'hono', limited: 'hono+headway', target: 0.9 },
  { name: 'Hono + an empty middleware', bare: 'hono', limited: 'hono+empty', target: 0 },
  { name: 'Hono + the same headers only (floor)', bare: 'hono', limited: 'hono+floor', target: 0 },
  { name: 'Hono app.fetch in withRateLimit', bare: 'hono', limited: 'hono+fetch-wrap', target: 0 },
  { name: 'Hono A/A (the bare app again)', bare: 'hono', limited: 'hono+copy', target: 0 },
  { name: 'Express + expressRateLimit', bare: 'express', limited: 'express+headway', target: 0.9 },
  { name: 'Express + an empty middleware', bare: 'express', limited: 'express+empty', target: 0 },
  { name: 'Express + the same headers only (floor)', bare: 'express', limited: 'express+floor', target: 0 },
  { name: 'Express A/A (the bare app again)', bare: 'express', limited: 'express+copy', target: 0 },
  { name: 'Express + express-rate-limit (peer)', bare: 'express', limited: 'express+erl', target: 0 },
];

/** A child process that answers each line on its stdin with one line on its stdout. */
interface LineChild {
  child: ChildProcess;
  /** The next line it writes. */
  next(): Promise<string>;
  /** Writes `line` and resolves with the line it answers. */
  ask(line: string): Promise<string>;
}

function startLineChild(script: string, args: readonly string[], flags: readonly string[] = []): LineChild {
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', script, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting: { resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (let end = out.indexOf('\n'); end >= 0; end = out.indexOf('\n')) {
      const line = out.slice(0, end);
      out = out.slice(end + 1);
      waiting.shift()?.resolve(line);
    }
  });
  child.once('exit', (code) => {
    for (const w of waiting.splice(0))
      w.reject(new Error(`S9: ${script} ${args.join(' ')} exited with ${code}`));
  });
  const next = () => new Promise<string>((resolve, reject) => waiting.push({ resolve, reject }));
  const ask = (line: string) => {
    const answer = next();
    child.stdin!.write(`${line}\n`);
    return answer;
  };
  return { child, next, ask };
}

/**
 * V8 flags of every server process, bare and limited alike. The schedule leaves a case's process
 * idle for most of a rep, and V8 reads idleness as a cue to shrink the heap (the memory reducer)
 * and to drop the bytecode of functions not run lately, which a server under steady load never
 * sees; the bare server, run every other time, rarely idles that long. Without them the A/A rows
 * (the bare app again) read 0.84–0.96× in one run; with them, 0.96–1.02×.
 */
const serverFlags = ['--no-memory-reducer', '--no-flush-bytecode'];

/**
 * Unmeasured load put on a server just before each measured run of it. The bare app runs before
 * and after every case, each case once per rep: without it a case's process comes to its run
 * after idling several runs longer than the bare one, and reads slower for it (the A/A row, the
 * same bare app in a case's place, read 0.96–0.99× in the 2026-12-05 runs).
 */
const WAKE_MS = 100;

interface Server {
  child: ChildProcess;
  port: number;
  /** The server process's CPU µs and requests served so far. */
  usage(): Promise<{ cpuUs: number; requests: number }>;
}

async function startCase(name: S9Case): Promise<Server> {
  const server = startLineChild('bench/s9-http-server.ts', [name], serverFlags);
  const { port } = JSON.parse(await server.next()) as { port: number };
  const usage = async () => JSON.parse(await server.ask('')) as { cpuUs: number; requests: number };
  return { child: server.child, port, usage };
}

/** Requests/s (2xx only) of one autocannon run against `port`, from the load process. */
async function load(generator: LineChild, port: number, ms: number, connections: number): Promise<number> {
  return (JSON.parse(await generator.ask(JSON.stringify({ port, ms, connections }))) as { rate: number })
    .rate;
}

export async function runS9(report: Report, o: S9Options): Promise<void> {
  // `--kind` also names S6's server kinds: only the names of S9 apps narrow S9.
  const apps = (o.apps ?? []).filter((a) => allPairs.some((p) => p.bare === a));
  const pairs = allPairs.filter((p) => apps.length === 0 || apps.includes(p.bare));
  const names = [...new Set(pairs.flatMap((p) => [p.bare, p.limited]))];
  if (!(o.ms >= 100)) throw new Error(`S9: at least 100 ms of load per run, not ${o.ms}`);
  const servers = new Map<S9Case, Server>();
  const generator = startLineChild('bench/s9-load.ts', []);
  try {
    // Started together: each spends a second or more loading tsx and its framework.
    const started = await Promise.allSettled(names.map(startCase));
    started.forEach((s, i) => {
      if (s.status === 'fulfilled') servers.set(names[i]!, s.value);
    });
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    // Warm-up: JIT and connection setup of every server and of the load process, not measured.
    for (const name of names) await load(generator, servers.get(name)!.port, 1000, o.connections);
    const rates = new Map<S9Case, number[]>();
    const ratios = new Map<string, number[]>();
    const cpu = new Map<S9Case, number[]>();
    const add = <K>(map: Map<K, number[]>, key: K, value: number) =>
      map.set(key, [...(map.get(key) ?? []), value]);
    /** Requests/s of one run (kept with the server's CPU µs per request during it). */
    const measure = async (name: S9Case) => {
      const server = servers.get(name)!;
      // Woken first, unmeasured: a server measured less often than its bare app has idled longer.
      await load(generator, server.port, WAKE_MS, o.connections);
      const before = await server.usage();
      const rate = await load(generator, server.port, o.ms, o.connections);
      const after = await server.usage();
      add(cpu, name, (after.cpuUs - before.cpuUs) / (after.requests - before.requests));
      add(rates, name, rate);
      return rate;
    };
    const bares = [...new Set(pairs.map((p) => p.bare))];
    for (let rep = 0; rep < o.reps; rep++) {
      for (const bare of bares) {
        const own = pairs.filter((p) => p.bare === bare);
        // bare, A, bare, B, …, bare: each case between two bare runs.
        let bareBefore = await measure(bare);
        for (const pair of rep % 2 === 0 ? own : own.reverse()) {
          const limited = await measure(pair.limited);
          const bareAfter = await measure(bare);
          const bareRate = (bareBefore + bareAfter) / 2;
          const ratio = limited / bareRate;
          add(ratios, pair.name, ratio);
          process.stderr.write(
            `  S9 ${pair.name.padEnd(36)} bare ${int(bareRate)}/s (${int(bareBefore)} before, ${int(bareAfter)} after), limited ${int(limited)}/s = ${fixed(ratio, 2)}×; CPU µs/req ${fixed(cpu.get(bare)!.at(-1)!, 1)} → ${fixed(cpu.get(pair.limited)!.at(-1)!, 1)}\n`,
          );
          bareBefore = bareAfter;
        }
      }
    }
    const cpuOf = (name: S9Case) => median(cpu.get(name)!);
    report.table(
      `S9: whole HTTP path, requests/s (autocannon, ${o.connections} connections, ${o.ms} ms per run)`,
      `Medians of ${o.reps} rep(s); the ratio is the median over reps of limited ÷ the mean of the bare runs just before and just after it (bare, A, bare, B, …, bare; the order reversed every other rep; each run preceded by ${WAKE_MS} ms of unmeasured load on its server). Each server is its own process (run with ${serverFlags.join(' ')}, bare and limited alike, so idleness between its runs does not make V8 shrink its heap or drop its bytecode; the A/A row, the bare app again in another process, shows what the schedule reads between identical servers); autocannon runs in another, one for the whole run (on 2 cores the generator, not the server, is often the bottleneck, so also the server's own CPU per request: the limiter's added cost is the difference). Headway: default key (client IP), IETF headers, a limit never reached. Fetch handler and Hono are served by @hono/node-server.`,
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
      const erlRatios = ratios.get(allPairs.find((p) => p.limited === 'express+erl')!.name);
      const references = {
        '+copy': 'A/A',
        '+empty': 'empty middleware',
        '+floor': 'floor (the same headers only)',
      };
      const floorNote = pairs
        .filter((p) => p.bare === pair.bare)
        .flatMap((p) =>
          Object.entries(references)
            .filter(([suffix]) => p.limited.endsWith(suffix))
            .map(([, label]) => `${label} ${fixed(median(ratios.get(p.name)!), 2)}× bare`),
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
    generator.child.kill();
    for (const { child } of servers.values()) child.kill();
  }
}

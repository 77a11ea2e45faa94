/**
 * The soak (`npm run soak`, 60 s; `npm test` runs a short one): four client processes offer twice
 * the limit to one reference server on the Redis store. It checks what the issue asks:
 * - admitted requests up to every second t stay within `burst + rate·t` (t from when the first
 *   admitted decision was asked of the store, which Redis cannot have decided earlier);
 * - the server's heap at the end is within 10 % of its heap after warm-up;
 * - no event-loop stall over 50 ms after warm-up, in the server or in any client;
 * - every request is answered (200 or 429), none lost.
 *
 *   npm run soak                      # 60 s
 *   npm run soak -- --seconds 20
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startRedisServer } from '../support/redis-server.js';
import type { ClientReport } from './soak-client.js';
import type { ServerReport } from './soak-server.js';

/** How a soak runs. */
export interface SoakOptions {
  seconds: number;
  /** Requests per second the server admits (token bucket), and its burst. */
  rate: number;
  burst: number;
  clients: number;
  /** Redis to use; a private redis-server when undefined. */
  redisUrl?: string;
}

/** What a soak measured, and whether each bound held. */
export interface SoakResult {
  options: SoakOptions;
  server: ServerReport;
  clients: ClientReport[];
  /** Admitted up to second t minus `burst + rate·t`, at its worst second (≤ 0 when the bound held). */
  worstExcess: { excess: number; at: number };
  heapGrowth: number;
  maxStallMs: number;
  answered: number;
  sent: number;
  failures: string[];
}

function child(file: string, env: Record<string, string>, nodeArgs: string[] = []): ChildProcess {
  return spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', fileURLToPath(new URL(file, import.meta.url))],
    {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
}

/** Resolves with every line `proc` prints, once it exits (rejects on a non-zero exit). */
function lines(proc: ChildProcess, onLine?: (line: string) => void): Promise<string[]> {
  const all: string[] = [];
  let rest = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString()).split('\n');
    rest = parts.pop()!;
    for (const line of parts) {
      all.push(line);
      onLine?.(line);
    }
  });
  return new Promise((resolve, reject) =>
    proc.once('exit', (code) =>
      code === 0 ? resolve(all) : reject(new Error(`soak child exited with ${code}`)),
    ),
  );
}

/**
 * The largest excess of admissions over `burst + rate·t`, at every whole second t after `origin`
 * (when the first admitted decision was asked of the store; timestamps sorted, ms on the server's
 * clock), t counted on the store's clock, which runs `clockRate` ms per ms of ours (Redis's wall
 * clock, which the bucket refills by, may be slewed). No other slack is needed: Redis decided the
 * first admission at `origin` or later, so the bucket's own clock counts from no earlier, and
 * every timestamp is recorded after its decision, which can only lower a count up to t.
 */
function worstExcess(
  sorted: readonly number[],
  origin: number,
  clockRate: number,
  rate: number,
  burst: number,
): { excess: number; at: number } {
  let worst = { excess: Number.NEGATIVE_INFINITY, at: 0 };
  /** Our time when `t` seconds have passed on the store's clock since `origin`. */
  const localAt = (t: number) => origin + (t * 1000) / clockRate;
  for (let t = 1, i = 0; localAt(t) <= (sorted.at(-1) ?? 0) + 1000; t++) {
    while (i < sorted.length && sorted[i]! < localAt(t)) i++;
    const excess = i - Math.floor(burst + rate * t);
    if (excess > worst.excess) worst = { excess, at: t };
  }
  return worst;
}

/** Runs one soak and checks its bounds. */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const redis = options.redisUrl ? undefined : await startRedisServer();
  const redisUrl = options.redisUrl ?? redis!.url;
  try {
    const warmUpMs = Math.min(5_000, (options.seconds * 1000) / 5);
    const server = child(
      './soak-server.ts',
      {
        SOAK_REDIS_URL: redisUrl,
        SOAK_RATE: String(options.rate),
        SOAK_BURST: String(options.burst),
      },
      ['--expose-gc'],
    );
    let ready: (url: string) => void;
    const url = new Promise<string>((resolve) => {
      ready = resolve;
    });
    const serverLines = lines(server, (line) => {
      if (line.startsWith('READY ')) ready(line.slice(6));
    });
    const target = await Promise.race([
      url,
      serverLines.then(() => Promise.reject(new Error('server never ready'))),
    ]);
    const clientRate = (2 * options.rate) / options.clients;
    const warm = setTimeout(() => server.stdin!.write('warm\n'), warmUpMs);
    const clients = await Promise.all(
      Array.from({ length: options.clients }, () =>
        lines(
          child('./soak-client.ts', {
            SOAK_URL: target,
            SOAK_CLIENT_RATE: String(clientRate),
            SOAK_SECONDS: String(options.seconds),
            SOAK_WARM_UP_MS: String(warmUpMs),
          }),
        ).then((out) => JSON.parse(out.at(-1)!) as ClientReport),
      ),
    );
    clearTimeout(warm);
    server.stdin!.end('stop\n');
    const report = JSON.parse((await serverLines).at(-1)!) as ServerReport;
    const sorted = [...report.admittedAt].sort((a, b) => a - b);
    const excess = worstExcess(
      sorted,
      report.firstAdmittedAskedAt,
      report.storeClockRate,
      options.rate,
      options.burst,
    );
    const heapGrowth = report.heapAtEnd / report.heapAfterWarmUp - 1;
    const maxStallMs = Math.max(report.maxStallMs, ...clients.map((c) => c.maxStallMs));
    const sent = clients.reduce((a, c) => a + c.sent, 0);
    const answered = clients.reduce((a, c) => a + (c.statuses['200'] ?? 0) + (c.statuses['429'] ?? 0), 0);
    const failures: string[] = [];
    if (excess.excess > 0)
      failures.push(`${excess.excess} admitted over burst + rate·t at t = ${excess.at} s`);
    if (answered !== sent) {
      const other = clients.map((c) => JSON.stringify({ ...c.statuses, errors: c.errors })).join(' ');
      failures.push(`${sent - answered} of ${sent} requests not answered 200/429 (${other})`);
    }
    if (report.storeErrors > 0) failures.push(`${report.storeErrors} store errors`);
    return {
      options,
      server: report,
      clients,
      worstExcess: excess,
      heapGrowth,
      maxStallMs,
      answered,
      sent,
      failures,
    };
  } finally {
    await redis?.stop();
  }
}

/** The long checks (heap, stalls) that only mean something over a long run. */
export function longRunFailures(result: SoakResult): string[] {
  const failures: string[] = [];
  if (result.heapGrowth > 0.1)
    failures.push(`heap grew ${(result.heapGrowth * 100).toFixed(1)} % after warm-up`);
  if (result.maxStallMs > 50) failures.push(`an event-loop stall of ${result.maxStallMs.toFixed(0)} ms`);
  return failures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--seconds');
  const seconds = at > 0 ? Number(process.argv[at + 1]) : 60;
  const result = await runSoak({
    seconds,
    rate: 200,
    burst: 20,
    clients: 4,
    redisUrl: process.env.REDIS_URL,
  });
  const failures = [...result.failures, ...longRunFailures(result)];
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  console.log(
    [
      `soak: ${seconds} s, ${result.options.clients} client processes offering ${2 * result.options.rate}/s to a limit of ${result.options.rate}/s burst ${result.options.burst} on Redis`,
      `requests: ${result.sent} sent, ${result.answered} answered (200 or 429), ${result.server.admittedAt.length} admitted, ${result.server.refused} refused`,
      `admitted up to second t, against burst + rate·t: at worst ${result.worstExcess.excess} (t = ${result.worstExcess.at} s; ≤ 0 holds)`,
      `server heap: ${mb(result.server.heapAfterWarmUp)} after warm-up, ${mb(result.server.heapAtEnd)} at the end (${(result.heapGrowth * 100).toFixed(1)} %)`,
      `longest event-loop stall: ${result.maxStallMs.toFixed(1)} ms (server ${result.server.maxStallMs.toFixed(1)} ms)`,
      failures.length === 0 ? 'PASS' : `FAIL: ${failures.join('; ')}`,
    ].join('\n'),
  );
  process.exit(failures.length === 0 ? 0 : 1);
}

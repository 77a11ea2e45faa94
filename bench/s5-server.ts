/**
 * S5 (server limiter): decisions per second in-process, on 1 key and round-robin over 100,000 keys,
 * in the allow regime (a limit never reached) and the deny regime (every key already spent: limit
 * 1 per minute, each key taken once before measuring), each measurement in a child process of its
 * own (bench/s5-decide-child.ts) that checks the verdicts match the regime; heap bytes per key
 * after 1,000,000 keys (in a child with `--expose-gc`); and Redis decisions per second with 64
 * calls in flight on one ioredis connection each: Headway `redisStore().take` vs
 * rate-limiter-flexible `RateLimiterRedis.consume`, with Redis's own CPU per decision.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { redisStore } from 'headway/redis';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { type LimiterSpec, memoryLimiters, memoryReferences } from './lib/limiters.js';
import { benchRedis } from './lib/redis.js';
import type { Report } from './lib/report.js';
import { fixed, int, median, rotate } from './lib/stats.js';

const run = promisify(execFile);

export interface S5Options {
  reps: number;
  /** Decisions per memory pass. */
  ops: number;
  /** Passes of each limiter per child process, interleaved with its group (three processes or more per cell). */
  rounds: number;
  manyKeys: number;
  heapKeys: number;
  redisMs: number;
  redis: boolean;
  /** The in-memory cells (decisions/s and heap); `--redis-only` leaves them out. */
  memory: boolean;
}

interface Regime {
  name: string;
  keys: number;
  limit: number;
}

/**
 * Every pass's decisions/s of each limiter of `group` in one regime, the group sharing one child
 * that interleaves their passes (see s5-decide-child.ts).
 */
async function decisionsPerSecond(
  group: readonly LimiterSpec[],
  regime: Regime,
  ops: number,
  rounds: number,
): Promise<Map<LimiterSpec, number[]>> {
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      'bench/s5-decide-child.ts',
      group.map((spec) => spec.id).join(','),
      String(regime.keys),
      String(regime.limit),
      String(ops),
      String(rounds),
    ],
    { maxBuffer: 1 << 20, timeout: 300_000 },
  );
  const { results } = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    results: { id: string; rates: number[]; allowed: number }[];
  };
  // Same work per decision: a limiter that is not in the regime the cell names would not be compared fairly.
  const expected = regime.limit >= ops ? ops : 0;
  const rates = new Map<LimiterSpec, number[]>();
  for (const spec of group) {
    const result = results.find((r) => r.id === spec.id)!;
    if (result.allowed !== expected)
      throw new Error(
        `S5 ${regime.name}: ${spec.id} allowed ${result.allowed} of ${ops} decisions, expected ${expected}`,
      );
    rates.set(spec, result.rates);
  }
  return rates;
}

async function heapPerKey(spec: LimiterSpec, keys: number): Promise<number> {
  const { stdout } = await run(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'bench/s5-heap-child.ts', spec.id, String(keys)],
    { maxBuffer: 1 << 20, timeout: 120_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!).bytesPerKey;
}

/** Redis's own CPU (user + system) so far, in µs, from `INFO cpu`. */
async function redisCpuUs(client: Redis): Promise<number> {
  const info = await client.info('cpu');
  const field = (name: string) => Number(info.match(new RegExp(`^${name}:([\\d.]+)`, 'm'))?.[1] ?? 0);
  return (field('used_cpu_user') + field('used_cpu_sys')) * 1e6;
}

/**
 * Commands Redis has run so far (`INFO commandstats`, every command, those a script calls
 * included), less the `INFO` calls this bench makes.
 */
async function redisCommands(client: Redis): Promise<number> {
  const stats = await client.info('commandstats');
  let total = 0;
  for (const [, name, calls] of stats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
    if (name !== 'info') total += Number(calls);
  return total;
}

/**
 * Decisions/s with `concurrency` calls in flight for `ms` (after a 300 ms warm-up), with Redis's
 * and this process's CPU µs per call and Redis's commands per call (warm-up included in all).
 */
async function inFlightOnRedis(
  op: (i: number) => Promise<unknown>,
  ms: number,
  redis: Redis,
): Promise<{ rate: number; cpuUs: number; nodeUs: number; commands: number }> {
  let calls = 0;
  const counted = (i: number) => {
    calls++;
    return op(i);
  };
  const commandsBefore = await redisCommands(redis);
  const before = await redisCpuUs(redis);
  const node = process.cpuUsage();
  const rate = await inFlight(counted, ms);
  const { user, system } = process.cpuUsage(node);
  const cpuUs = ((await redisCpuUs(redis)) - before) / calls;
  const commands = ((await redisCommands(redis)) - commandsBefore) / calls;
  return { rate, cpuUs, nodeUs: (user + system) / calls, commands };
}

/** Decisions/s with `concurrency` calls in flight for `ms` (after a 300 ms warm-up). */
async function inFlight(op: (i: number) => Promise<unknown>, ms: number, concurrency = 64): Promise<number> {
  const phase = async (duration: number) => {
    const stopAt = performance.now() + duration;
    let count = 0;
    // One sequence over all lanes: the calls in flight at once go to consecutive keys (with a
    // counter per lane, every lane would ask for the same key at the same moment).
    let next = 0;
    const lane = async () => {
      while (performance.now() < stopAt) {
        await op(next++);
        count++;
      }
    };
    const start = performance.now();
    await Promise.all(Array.from({ length: concurrency }, lane));
    return (count * 1000) / (performance.now() - start);
  };
  await phase(300);
  return phase(ms);
}

export async function runS5(report: Report, o: S5Options): Promise<void> {
  if (!o.memory) return redisCells(report, o);
  const regimes: Regime[] = [
    { name: '1 key, allow', keys: 1, limit: 1e9 },
    { name: '1 key, deny', keys: 1, limit: 1 },
    { name: `${int(o.manyKeys)} keys, allow`, keys: o.manyKeys, limit: 1e9 },
    { name: `${int(o.manyKeys)} keys, deny`, keys: o.manyKeys, limit: 1 },
  ];
  const results = new Map<string, number[]>();
  const measured = [...memoryLimiters, ...memoryReferences];
  // Each verdict's ratio is taken between limiters that shared a process and took turns:
  // Headway with erl and the floor, and Headway with rate-limiter-flexible apart from them (it
  // keeps a timer per key for a minute, a weight on everyone's heap). Headway's fixed window runs
  // alone (in one process with the token bucket, the store's code would see two algorithms).
  const byId = (...ids: LimiterSpec['id'][]) => ids.map((id) => measured.find((s) => s.id === id)!);
  const groups = [
    byId('headway', 'express-rate-limit', 'bucket-floor'),
    byId('headway', 'rate-limiter-flexible'),
    byId('headway-fixed-window'),
  ];
  // At least three processes per cell: how V8 compiles the hot path differs from one process to
  // the next (by ±15% on a loaded machine), and the median of their passes takes the usual case.
  const processes = Math.max(3, o.reps);
  for (let rep = 0; rep < processes; rep++)
    for (const regime of regimes)
      for (const group of rotate(groups, rep)) {
        // The order the limiters are created and warmed in rotates too.
        const rates = await decisionsPerSecond(rotate(group, rep), regime, o.ops, o.rounds);
        for (const [spec, passes] of rates) {
          const id = `${groups.indexOf(group)}|${spec.id}|${regime.name}`;
          results.set(id, [...(results.get(id) ?? []), ...passes]);
          process.stderr.write(
            `  S5 ${regime.name.padEnd(20)} ${spec.label.padEnd(50)} ${int(median(passes))}/s (median of ${passes.length})\n`,
          );
        }
      }
  /** Median decisions/s of `spec` in the `group`-th group (by default the first that runs it). */
  const rate = (spec: LimiterSpec, regime: Regime, group = groups.findIndex((g) => g.includes(spec))) =>
    median(results.get(`${group}|${spec.id}|${regime.name}`) ?? []);
  const heap = new Map<string, number>();
  for (const spec of memoryLimiters) {
    heap.set(spec.id, await heapPerKey(spec, o.heapKeys));
    process.stderr.write(`  S5 heap ${spec.label.padEnd(50)} ${fixed(heap.get(spec.id)!, 0)} B/key\n`);
  }
  const [headway, rlf, erl] = memoryLimiters;
  const floor = memoryReferences.find((s) => s.id === 'bucket-floor')!;
  report.table(
    `S5: server limiter in memory, decisions/s (one awaited promise per decision, ${int(o.ops)} per pass, passes interleaved in one process)`,
    `Medians of every pass: ${Math.max(3, o.reps)} processes × ${o.rounds} rounds per cell. Deny = every key already spent (limit 1 per minute). Limiters compared share a process and take turns, one pass each per round in an order rotated every round (so a change in the machine's load falls on all of them, not on whichever ran then), each with its own compiled copy of the loop: Headway with erl and the floor row (the table's Headway row and the ÷ erl ratios), and Headway with rate-limiter-flexible in another process (the ÷ RLF ratios; apart because RLF's timer per key would weigh on the others' heap); Headway's fixed window runs alone (in one process with the token bucket the store's code would see two algorithms). Every pass counts the verdicts (allow: all admitted, deny: none), each judged as its middleware judges it (erl: \`totalHits > limit\`; RLF: a rejection). erl counts a fixed window; Headway runs a token bucket with exact \`retryAfterMs\`. Heap = bytes per key after ${int(o.heapKeys)} keys, JS heap plus array buffers (child with --expose-gc; key strings built before the first reading). Headway's store is given maxKeys above the keys in play (it is bounded by design). Two reference rows, not judged: Headway's fixed window (the algorithm erl and RLF count), and the floor of a token bucket in this harness (a bare \`Map\` of \`Float64Array\`s, one \`performance.now()\`, the refill arithmetic, a fresh decision object; no exact waits, no bound on memory: see bench/lib/limiters.ts).`,
    ['limiter', ...regimes.map((r) => r.name), `heap B/key (${int(o.heapKeys)})`],
    measured.map((spec) => [
      spec.id === 'headway' ? `**${spec.label}**` : spec.label,
      ...regimes.map((r) => int(rate(spec, r))),
      heap.has(spec.id) ? fixed(heap.get(spec.id)!, 0) : '—',
    ]),
  );
  for (const regime of regimes) {
    const ratio = rate(headway!, regime, 1) / rate(rlf!, regime, 1);
    const vsErl = rate(headway!, regime) / rate(erl!, regime);
    const pass = ratio >= 2 && vsErl >= 1;
    report.verdict({
      scenario: 'S5',
      row: `S5 memory, ${regime.name}`,
      headway: `${int(rate(headway!, regime))}/s = ${fixed(ratio, 2)}× RLF, ${fixed(vsErl, 2)}× erl`,
      bestPeer: bestMemoryPeer(regime, rate),
      target: '≥ 2× rate-limiter-flexible and ≥ express-rate-limit',
      pass,
      ...(pass
        ? {}
        : {
            note: `${fixed(ratio, 2)}× RLF, ${fixed(vsErl, 2)}× erl (the bare-bucket floor: ${fixed(rate(floor, regime) / rate(erl!, regime), 2)}× erl)`,
          }),
    });
  }
  const bytes = heap.get('headway')!;
  report.verdict({
    scenario: 'S5',
    row: `S5 heap per key (${int(o.heapKeys)} keys)`,
    headway: `${fixed(bytes, 0)} B/key`,
    bestPeer: memoryLimiters
      .filter((s) => s.id !== 'headway')
      .map((s) => `${s.id} ${fixed(heap.get(s.id)!, 0)} B`)
      .join(', '),
    target: '≤ 64 B/key',
    pass: bytes <= 64,
    ...(bytes <= 64 ? {} : { note: `${fixed(bytes, 0)} B/key` }),
  });

  if (o.redis) await redisCells(report, o);
}

/** The Redis cells: Headway `redisStore().take` vs `RateLimiterRedis.consume`, 64 in flight. */
async function redisCells(report: Report, o: S5Options): Promise<void> {
  const { url } = await benchRedis();
  const clients = [
    new Redis(url, { enableOfflineQueue: false, lazyConnect: true }),
    new Redis(url, { enableOfflineQueue: false, lazyConnect: true }),
    new Redis(url, { enableOfflineQueue: false, lazyConnect: true }),
  ] as const;
  await Promise.all(clients.map((c) => c.connect()));
  const prefix = `bench-s5-${process.pid}`;
  const store = redisStore({ client: clients[0], prefix, commandTimeoutMs: 1000 });
  const limit = { algorithm: 'token-bucket' as const, limit: 1e9, windowMs: 60_000 };
  // rate-limiter-flexible's README: ioredis with enableOfflineQueue: false, points per duration (s).
  const rlfRedis = new RateLimiterRedis({
    storeClient: clients[1],
    keyPrefix: `${prefix}-rlf`,
    points: 1e9,
    duration: 60,
  });
  const redisCases = [
    { name: '1 key', keyOf: (_i: number) => 'hot' },
    // Consecutive calls take consecutive keys: the 64 in flight are 64 different keys.
    { name: '1,000 keys', keyOf: (i: number) => `k${i % 1000}` },
  ];
  // Each rep: PING, Headway, RLF, RLF, Headway, PING (halves of redisMs), so neither side always
  // runs on a colder or warmer connection.
  const pings: number[] = [];
  const half = o.redisMs / 2;
  type Runs = { rate: number[]; cpuUs: number[]; nodeUs: number[]; commands: number[] };
  const runs = (): Runs => ({ rate: [], cpuUs: [], nodeUs: [], commands: [] });
  const record = (into: Runs) => (r: { rate: number; cpuUs: number; nodeUs: number; commands: number }) => {
    into.rate.push(r.rate);
    into.cpuUs.push(r.cpuUs);
    into.nodeUs.push(r.nodeUs);
    into.commands.push(r.commands);
  };
  const info = clients[2];
  const redisRows: string[][] = [];
  const redisResults: { name: string; ours: Runs; theirs: Runs }[] = [];
  for (const c of redisCases) {
    const ours = runs();
    const theirs = runs();
    for (let rep = 0; rep < o.reps; rep++) {
      const ping = () => inFlight(() => clients[0].ping(), half).then((r) => pings.push(r));
      const a = () => inFlightOnRedis((i) => store.take(c.keyOf(i), limit, 1), half, info).then(record(ours));
      const b = () => inFlightOnRedis((i) => rlfRedis.consume(c.keyOf(i)), half, info).then(record(theirs));
      for (const step of rep % 2 === 0 ? [ping, a, b, b, a, ping] : [ping, b, a, a, b, ping]) await step();
    }
    redisResults.push({ name: c.name, ours, theirs });
  }
  redisRows.push(['PING (one round trip: the ceiling)', int(median(pings)), '', '', '', '', '']);
  for (const { name, ours, theirs } of redisResults) {
    const ratio = median(ours.rate) / median(theirs.rate);
    const us = (xs: number[]) => fixed(median(xs), 1);
    const perCall = (xs: number[]) => fixed(median(xs), 2);
    process.stderr.write(
      `  S5 redis ${name}: Headway ${int(median(ours.rate))}/s (${us(ours.cpuUs)} µs Redis CPU, ${us(ours.nodeUs)} µs Node, ${perCall(ours.commands)} Redis commands), RLF ${int(median(theirs.rate))}/s (${us(theirs.cpuUs)} µs, ${us(theirs.nodeUs)} µs, ${perCall(theirs.commands)})\n`,
    );
    redisRows.push([
      name,
      int(median(ours.rate)),
      int(median(theirs.rate)),
      `${fixed(ratio, 2)}×`,
      `${us(ours.cpuUs)} / ${us(theirs.cpuUs)}`,
      `${us(ours.nodeUs)} / ${us(theirs.nodeUs)}`,
      `${perCall(ours.commands)} / ${perCall(theirs.commands)}`,
    ]);
    report.verdict({
      scenario: 'S5',
      row: `S5 Redis, ${name}, 64 in flight`,
      headway: `${int(median(ours.rate))}/s = ${fixed(ratio, 2)}× RLF, Redis CPU ${us(ours.cpuUs)} µs/decision`,
      bestPeer: `rate-limiter-flexible RateLimiterRedis ${int(median(theirs.rate))}/s, Redis CPU ${us(theirs.cpuUs)} µs/decision`,
      target: '≥ 1.5× rate-limiter-flexible Redis',
      pass: ratio >= 1.5,
      ...(ratio >= 1.5 ? {} : { note: `${fixed(ratio, 2)}×` }),
    });
  }
  report.table(
    `S5: Redis decisions/s, 64 calls in flight, one ioredis connection each, ${o.redisMs} ms per client and key set per rep`,
    `Each rep runs PING, Headway, RLF, RLF, Headway, PING for ${o.redisMs / 2} ms each (medians over reps and halves). Headway: \`redisStore().take\` (token bucket; the calls of one event-loop turn share one EVALSHA of the batch script, two such batches alternating, each reading its keys with one MGET and writing each key once with SET … PX). rate-limiter-flexible: \`RateLimiterRedis.consume\` (fixed window). "1,000 keys": consecutive calls take consecutive keys, so the 64 in flight are 64 keys. Redis CPU = \`used_cpu_user + used_cpu_sys\` of \`INFO cpu\` over the run ÷ decisions; Redis commands = every command of \`INFO commandstats\` (\`EVALSHA\` and those its script calls) over the run ÷ decisions; Node CPU = \`process.cpuUsage()\` of the bench process (load loop included, the same for both) ÷ decisions.`,
    [
      'keys',
      'Headway redisStore',
      'RLF RateLimiterRedis',
      'Headway ÷ RLF',
      'Redis CPU µs/decision (Headway / RLF)',
      'Node CPU µs/decision (Headway / RLF)',
      'Redis commands/decision (Headway / RLF)',
    ],
    redisRows,
  );
  for (const c of clients) c.disconnect();
}

function bestMemoryPeer(regime: Regime, rate: (spec: LimiterSpec, regime: Regime) => number): string {
  const peers = memoryLimiters.filter((s) => s.id !== 'headway');
  const best = peers.sort((a, b) => rate(b, regime) - rate(a, regime))[0]!;
  return `${best.id} ${int(rate(best, regime))}/s`;
}

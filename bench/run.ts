/**
 * `npm run bench`: Headway against the libraries users would pick instead, side by side, in one run.
 *
 *   npm run bench                                  # every scenario, short default (≤ 5 min on 2 cores)
 *   npm run bench -- --scenario S1 --reps 5        # one scenario (S1, S1b, S2, S3, S4, S5), more reps
 *   npm run bench -- --smoke                       # CI: one short rep of S1 and S4, < 60 s
 *
 * Results go to bench/RESULTS.md (unless --no-write) and stdout; progress goes to stderr.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from './lib/args.js';
import { headwayConfigured, headwayLearning, kyClient } from './lib/clients.js';
import { machine, peerVersions, redisVersion } from './lib/machine.js';
import { stopBenchRedis } from './lib/redis.js';
import { Report } from './lib/report.js';
import { dialects, runS1, s1Clients } from './s1-batch.js';
import { runS2 } from './s2-outage.js';
import { runS4, s4Pairs } from './s4-overhead.js';
import { runS5 } from './s5-server.js';

const args = parseArgs(process.argv.slice(2));
const report = new Report();
const wanted = (name: string) => args.scenarios.length === 0 || args.scenarios.includes(name.toUpperCase());
const started = performance.now();

try {
  if (args.smoke) {
    const clients = [headwayConfigured, headwayLearning, kyClient];
    await runS1(report, 'S1', { n: 200, reps: 1, workers: 16, dialects: ['ietf'], clients, capMs: 20_000 });
    await runS4(report, { n: 2000, concurrency: 32, reps: 1, pairs: s4Pairs.slice(0, 2) });
  } else {
    if (wanted('S1'))
      await runS1(report, 'S1', {
        n: 1000,
        reps: args.reps,
        workers: 16,
        dialects,
        clients: s1Clients,
        capMs: 12_000,
      });
    if (wanted('S1b'))
      await runS1(report, 'S1b', {
        n: 1000,
        reps: args.reps,
        workers: 'all',
        dialects,
        clients: s1Clients,
        capMs: 12_000,
      });
    if (wanted('S2'))
      await runS2(report, {
        reps: args.reps,
        ratePerSecond: 100,
        durationMs: 3000,
        failForMs: 1000,
        capMs: 20_000,
      });
    if (wanted('S4')) await runS4(report, { n: 20_000, concurrency: 32, reps: args.reps, pairs: s4Pairs });
    if (wanted('S5'))
      await runS5(report, {
        reps: args.reps,
        ops: 300_000,
        manyKeys: 100_000,
        heapKeys: 1_000_000,
        redisMs: 2000,
        redis: true,
      });
  }
} finally {
  await stopBenchRedis();
}

const m = machine();
const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const versions = Object.entries(peerVersions())
  .map(([name, version]) => `${name} ${version}`)
  .join(', ');
const header = [
  '# Benchmark results',
  '',
  `Command: \`${command}\` — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${fixed1((performance.now() - started) / 1000)} s.`,
  '',
  `Machine: ${m.nproc} cores (\`nproc\`), ${m.cpu}, Node ${m.node} (${m.platform}), redis-server ${redisVersion()}.`,
  '',
  `Peers: ${versions}.`,
  '',
  '## Targets',
  '',
  report.verdictTable(),
  '',
  '## Scenarios',
  '',
].join('\n');
const markdown = `${header}${report.sections.join('\n')}`;
if (args.out && !args.smoke) writeFileSync(args.out, markdown);
console.log(`\n${report.verdictTable()}\n`);
console.log(
  `done in ${fixed1((performance.now() - started) / 1000)} s${args.out && !args.smoke ? `; wrote ${args.out}` : ''}`,
);
process.exit(0);

function fixed1(n: number): string {
  return n.toFixed(1);
}

#!/usr/bin/env node
/** The `headway` command line: `headway serve`, `headway batch`, `headway demo`. */
import { batchUsage } from './batch-args.js';
import { demoUsage } from './demo/demo-args.js';
import { serve } from './serve.js';
import { serveUsage } from './serve-args.js';

/** Each command: how it runs (resolving with its exit code, when it has one) and its usage. */
const commands: Record<string, { run: (args: string[]) => Promise<unknown>; usage: string }> = {
  serve: { run: serve, usage: serveUsage },
  // Loaded only for their command (progress display; the demo's bundler and pages).
  batch: { run: async (args) => (await import('./batch.js')).batch(args), usage: batchUsage },
  demo: { run: async (args) => (await import('./demo/command.js')).demo(args), usage: demoUsage },
};

const [name, ...args] = process.argv.slice(2);
const command = name === undefined ? undefined : commands[name];
/** `--help` or `-h`: asked for, the usage goes to stdout and the exit code is 0. */
const help = (given: string[]) => given.some((arg) => arg === '--help' || arg === '-h');
if (name === undefined || help([name])) {
  const all = `${serveUsage}\n\n${batchUsage}\n\n${demoUsage}\n`;
  if (name === undefined) process.stderr.write(all);
  else process.stdout.write(all);
  process.exitCode = name === undefined ? 2 : 0;
} else if (command && help(args.slice(0, args.indexOf('--') === -1 ? args.length : args.indexOf('--')))) {
  process.stdout.write(`${command.usage}\n`);
} else if (command) {
  command.run(args).then(
    (code) => {
      if (typeof code === 'number') process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `headway ${name}: ${error instanceof Error ? error.message : String(error)}\n${command.usage}\n`,
      );
      process.exitCode = 2;
    },
  );
} else {
  process.stderr.write(
    `headway: unknown command \`${name}\`\n\n${serveUsage}\n\n${batchUsage}\n\n${demoUsage}\n`,
  );
  process.exitCode = 2;
}

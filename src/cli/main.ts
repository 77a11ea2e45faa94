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
if (command) {
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
  process.stderr.write(`${serveUsage}\n\n${batchUsage}\n\n${demoUsage}\n`);
  process.exitCode = 2;
}

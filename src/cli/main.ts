#!/usr/bin/env node
/** The `headway` command line: `headway serve`, `headway batch`, `headway demo`. */
import { isHeadwayError } from '../errors.js';
import { batchFlags, batchRenamed, batchUsage } from './batch-args.js';
import { demoUsage } from './demo/demo-args.js';
import { flagOf } from './flags.js';
import { serve } from './serve.js';
import { serveFlags, serveUsage } from './serve-args.js';

/**
 * Each command: how it runs (resolving with its exit code, when it has one), its usage, and the
 * flag of a library option (an error names the flag the user typed, not the option).
 */
const commands: Record<
  string,
  { run: (args: string[]) => Promise<unknown>; usage: string; flag?: (option: string) => string | undefined }
> = {
  serve: { run: serve, usage: serveUsage, flag: (option) => flagOf(option, serveFlags) },
  // Loaded only for their command (progress display; the demo's bundler and pages).
  batch: {
    run: async (args) => (await import('./batch.js')).batch(args),
    usage: batchUsage,
    flag: (option) => flagOf(option, batchFlags, batchRenamed),
  },
  demo: { run: async (args) => (await import('./demo/command.js')).demo(args), usage: demoUsage },
};

/** `error`'s message, with a library option it names written as the command's flag. */
function messageOf(error: unknown, flag: ((option: string) => string | undefined) | undefined): string {
  if (!(error instanceof Error)) return String(error);
  // The option's error, or the one a command's own error wraps (`batch`'s usage errors).
  const invalid = [error, error.cause].find((e) => isHeadwayError(e, 'HEADWAY_INVALID_OPTION'));
  const name = invalid && flag?.(invalid.option);
  return invalid && name ? error.message.replaceAll(`\`${invalid.option}\``, `\`${name}\``) : error.message;
}

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
      process.stderr.write(`headway ${name}: ${messageOf(error, command.flag)}\n${command.usage}\n`);
      process.exitCode = 2;
    },
  );
} else {
  process.stderr.write(
    `headway: unknown command \`${name}\`\n\n${serveUsage}\n\n${batchUsage}\n\n${demoUsage}\n`,
  );
  process.exitCode = 2;
}

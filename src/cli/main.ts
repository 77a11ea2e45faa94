#!/usr/bin/env node
/** The `headway` command line. */
import { demo } from './demo/command.js';
import { demoUsage } from './demo/demo-args.js';
import { serve } from './serve.js';
import { serveUsage } from './serve-args.js';

const commands: Record<string, { run: (args: string[]) => Promise<void>; usage: string }> = {
  serve: { run: serve, usage: serveUsage },
  demo: { run: demo, usage: demoUsage },
};

const [name, ...args] = process.argv.slice(2);
const command = name === undefined ? undefined : commands[name];
if (command) {
  command.run(args).catch((error: unknown) => {
    process.stderr.write(
      `headway ${name}: ${error instanceof Error ? error.message : String(error)}\n${command.usage}\n`,
    );
    process.exitCode = 2;
  });
} else {
  process.stderr.write(`${serveUsage}\n\n${demoUsage}\n`);
  process.exitCode = 2;
}

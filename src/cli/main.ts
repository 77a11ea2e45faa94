#!/usr/bin/env node
import { serve } from './serve.js';
/** The `headway` command line. */
import { serveUsage } from './serve-args.js';

const [command, ...args] = process.argv.slice(2);
if (command === 'serve') {
  serve(args).catch((error: unknown) => {
    process.stderr.write(
      `headway serve: ${error instanceof Error ? error.message : String(error)}\n${serveUsage}\n`,
    );
    process.exitCode = 2;
  });
} else {
  process.stderr.write(`${serveUsage}\n`);
  process.exitCode = 2;
}

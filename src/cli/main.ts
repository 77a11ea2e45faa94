#!/usr/bin/env node
/** The `headway` command line: `headway serve`, `headway batch`. */
import { batchUsage } from './batch-args.js';
import { serve } from './serve.js';
import { serveUsage } from './serve-args.js';

const [command, ...args] = process.argv.slice(2);
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
if (command === 'serve') {
  serve(args).catch((error: unknown) => {
    process.stderr.write(`headway serve: ${message(error)}\n${serveUsage}\n`);
    process.exitCode = 2;
  });
} else if (command === 'batch') {
  // Loaded only for this command (it pulls in the progress display).
  import('./batch.js')
    .then(({ batch }) => batch(args))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error: unknown) => {
        process.stderr.write(`headway batch: ${message(error)}\n${batchUsage}\n`);
        process.exitCode = 2;
      },
    );
} else {
  process.stderr.write(`${serveUsage}\n${batchUsage}\n`);
  process.exitCode = 2;
}

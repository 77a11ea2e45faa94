import { parseArgs } from 'node:util';
import { portFlag } from '../flags.js';

/** Usage of `headway demo`. */
export const demoUsage = `usage: headway demo [options]
  --live              show the run on a local page (server-sent events); the run starts when it opens
  --host H            interface of the live page (default 127.0.0.1)
  --port N            port of the live page, 0 = a free one (default 0)
  --out FILE          where to write the report (default headway-demo-report.html)`;

/** Options of `headway demo`. */
export interface DemoOptions {
  live: boolean;
  host: string;
  port: number;
  out: string;
}

/** Parses `headway demo` flags. */
export function parseDemoArgs(args: string[]): DemoOptions {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      live: { type: 'boolean', default: false },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '0' },
      out: { type: 'string', default: 'headway-demo-report.html' },
    },
  });
  const port = portFlag('port', values.port) as number;
  return { live: values.live, host: values.host, port, out: values.out };
}

import { parseArgs } from 'node:util';
import { algorithmNames } from '../core/algorithms/index.js';
import { oneOf } from '../core/validate.js';
import { dialectNames } from '../server/headers/index.js';
import type { ServeOptions } from '../server/serve.js';
import { numberFlag as number, portFlag } from './flags.js';

/** Usage of `headway serve`. */
export const serveUsage = `usage: headway serve [options]
  --port N            port, 0 = a free one (default 0)
  --host H            interface (default 127.0.0.1)
  --rate N            requests per second (default 10)
  --burst N           burst, or requests per window for window algorithms
  --window-ms N       window length for window algorithms (default 1000)
  --algorithm A       ${algorithmNames.join(' | ')} (default token-bucket)
  --headers D         ${dialectNames.join(' | ')} (default ietf)
  --latency-ms N      delay each admitted answer (default 0)
  --fail-for-ms N     answer 503 without Retry-After for the first N ms (default 0)
  --clock-skew-ms N   the Date header lies by N ms (default 0)
  --mode M            enforce | observe (default enforce)
  --key-header NAME   key requests by this header's value
  --metrics-port N    serve Prometheus metrics at http://host:N/metrics, 0 = a free one
                      (needs @opentelemetry/sdk-metrics and @opentelemetry/exporter-prometheus)`;

/** What `headway serve` flags say: the server's options, and the metrics port when asked for. */
export type ServeArgs = Partial<ServeOptions> & { metricsPort: number | undefined };

/** The flags of `headway serve`. */
export const serveFlags = [
  'port',
  'host',
  'rate',
  'burst',
  'window-ms',
  'algorithm',
  'headers',
  'latency-ms',
  'fail-for-ms',
  'clock-skew-ms',
  'mode',
  'key-header',
  'metrics-port',
] as const;

/** Parses `headway serve` flags into {@link ServeArgs} (unset flags are `undefined`). */
export function parseServeArgs(args: string[]): ServeArgs {
  const { values } = parseArgs({
    args,
    strict: true,
    options: Object.fromEntries(serveFlags.map((name) => [name, { type: 'string' as const }])),
  });
  const text = (name: string) => values[name] as string | undefined;
  return {
    port: portFlag('port', text('port')),
    host: text('host'),
    rate: number('rate', text('rate')),
    burst: number('burst', text('burst')),
    windowMs: number('window-ms', text('window-ms')),
    algorithm:
      text('algorithm') === undefined ? undefined : oneOf('--algorithm', text('algorithm'), algorithmNames),
    headers: text('headers') === undefined ? undefined : oneOf('--headers', text('headers'), dialectNames),
    latencyMs: number('latency-ms', text('latency-ms')),
    failForMs: number('fail-for-ms', text('fail-for-ms')),
    clockSkewMs: number('clock-skew-ms', text('clock-skew-ms')),
    mode:
      text('mode') === undefined ? undefined : oneOf('--mode', text('mode'), ['enforce', 'observe'] as const),
    keyHeader: text('key-header'),
    metricsPort: portFlag('metrics-port', text('metrics-port')),
  };
}

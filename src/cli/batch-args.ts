import { parseArgs } from 'node:util';
import { numberFlag } from './flags.js';

/** Usage of `headway batch`. */
export const batchUsage = `usage: headway batch <input> [options]
  <input>                 a file of URLs (one per line) or NDJSON requests
                          {"method","url","headers","body"}; - reads stdin
  --out FILE              append NDJSON results here; a re-run with the same FILE skips the
                          lines it already holds (default: stdout, no resume)
  --rate N                requests per second per key (default: learned from the server)
  --burst N               requests at once (default max(1, rate))
  --concurrency N         requests in flight at once (default 16)
  --key NAME              one quota name for every request (default: each URL's origin)
  --max-retry-after MS    a longer Retry-After fails the request instead of waiting (default 900000)
  --redis URL             share the quota through Redis with other runners (needs --rate, ioredis)
  --workers N             runners sharing the --redis quota (default 1)
  --keep-headers A,B      response headers copied into each result (default content-type,retry-after)
  --bodies DIR            write each body to DIR/<line>.body instead of inline
exit codes: 0 every request answered 2xx/3xx; 1 done, but some failed, were malformed or answered
4xx/5xx; 2 usage or input error; 130/143 stopped by SIGINT/SIGTERM (re-run to resume)`;

/** What `headway batch` flags say. */
export interface BatchArgs {
  input: string;
  out: string | undefined;
  rate: number | undefined;
  burst: number | undefined;
  concurrency: number;
  key: string | undefined;
  maxRetryAfterMs: number | undefined;
  redis: string | undefined;
  workers: number;
  keepHeaders: string[];
  bodies: string | undefined;
}

/** The flags of `headway batch`, and the client options named otherwise. */
export const batchFlags = [
  'out',
  'rate',
  'burst',
  'concurrency',
  'key',
  'max-retry-after',
  'redis',
  'workers',
  'keep-headers',
  'bodies',
] as const;
export const batchRenamed = { maxRetryAfterMs: 'max-retry-after', maxConcurrent: 'concurrency' };

/** Parses `headway batch` arguments; throws a usage error (exit 2) on a bad one. */
export function parseBatchArgs(args: string[]): BatchArgs {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: Object.fromEntries(batchFlags.map((name) => [name, { type: 'string' as const }])),
  });
  if (positionals.length !== 1) throw new Error('expects exactly one <input>');
  const text = (name: string) => values[name] as string | undefined;
  const whole = (name: string, fallback: number) => {
    const value = numberFlag(name, text(name)) ?? fallback;
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} expects a whole number ≥ 1`);
    return value;
  };
  const rate = numberFlag('rate', text('rate'));
  if (text('redis') !== undefined && rate === undefined) throw new Error('--redis needs --rate');
  return {
    input: positionals[0] as string,
    out: text('out'),
    rate,
    burst: numberFlag('burst', text('burst')),
    concurrency: whole('concurrency', 16),
    key: text('key'),
    maxRetryAfterMs: numberFlag('max-retry-after', text('max-retry-after')),
    redis: text('redis'),
    workers: whole('workers', 1),
    keepHeaders: (text('keep-headers') ?? 'content-type,retry-after')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h !== ''),
    bodies: text('bodies'),
  };
}

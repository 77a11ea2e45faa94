import { startServer } from '../server/serve.js';
import { parseServeArgs } from './serve-args.js';

/**
 * `headway serve`: starts the reference server, prints `headway serve listening on URL` as the
 * first stdout line (and, with `--metrics-port`, `headway serve metrics on URL` as the second),
 * logs allowed/refused counts to stderr once a second when traffic happened, and stops cleanly on
 * SIGINT/SIGTERM.
 */
export async function serve(args: string[]): Promise<void> {
  const { metricsPort, ...options } = parseServeArgs(args);
  // Loaded only when asked for: the OpenTelemetry SDK and exporter are optional peers.
  const metrics = metricsPort === undefined ? undefined : await import('./serve-metrics.js');
  const endpoint = await metrics?.startServeMetrics(metricsPort as number, options.host);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(
      endpoint ? { ...options, limiter: { onDecision: endpoint.onDecision } } : options,
    );
  } catch (error) {
    // A bad flag: the metrics endpoint must not keep the process alive.
    await endpoint?.close();
    throw error;
  }
  endpoint?.observe(server);
  process.stdout.write(`headway serve listening on ${server.url}\n`);
  if (endpoint) process.stdout.write(`headway serve metrics on ${endpoint.url}\n`);
  let last = { allowed: 0, refused: 0, wouldRefuse: 0 };
  const timer = setInterval(() => {
    const { allowed, refused, wouldRefuse } = server.metrics();
    const delta = {
      allowed: allowed - last.allowed,
      refused: refused - last.refused,
      wouldRefuse: wouldRefuse - last.wouldRefuse,
    };
    last = { allowed, refused, wouldRefuse };
    if (delta.allowed + delta.refused + delta.wouldRefuse === 0) return;
    process.stderr.write(
      `${new Date().toISOString()} allowed=${delta.allowed} refused=${delta.refused} wouldRefuse=${delta.wouldRefuse}\n`,
    );
  }, 1000);
  const stop = () => {
    clearInterval(timer);
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    Promise.all([server.close(), endpoint?.close()]).then(
      () => {
        process.exitCode = 0;
      },
      (error: unknown) => {
        process.stderr.write(`headway serve: ${String(error)}\n`);
        process.exitCode = 1;
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

import { startServer } from '../server/serve.js';
import { parseServeArgs } from './serve-args.js';

/**
 * `headway serve`: starts the reference server, prints `headway serve listening on URL` as the
 * first stdout line, logs allowed/refused counts to stderr once a second when traffic happened,
 * and stops cleanly on SIGINT/SIGTERM.
 */
export async function serve(args: string[]): Promise<void> {
  const server = await startServer(parseServeArgs(args));
  process.stdout.write(`headway serve listening on ${server.url}\n`);
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
    server.close().then(
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

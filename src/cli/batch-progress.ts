/**
 * Progress of `headway batch` on stderr through cli-progress: a live bar on a terminal, one plain
 * line a second otherwise. Shows done/total, the rate so far, 429s and an ETA from the rate the
 * client learned (or was given), else from the rate so far.
 */
import cliProgress from 'cli-progress';

/** What the progress line shows. */
export interface ProgressSource {
  /** Lines done, those an earlier run recorded included. */
  done: number;
  /** Of `done`, the lines an earlier run recorded (resumed): not part of this run's rate. */
  before?: number;
  total: number;
  /** 429s (and other rate-limited answers) seen. */
  rateLimited: number;
  /** Requests per second this runner expects to get (learned or configured), if known. */
  rate: number | null;
}

/** A running progress display. */
export interface Progress {
  update(source: ProgressSource): void;
  stop(): void;
}

/** Seconds left as `42s` or `2m05s`: the whole rounded up first, so the seconds stay 00–59. */
function eta(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const whole = Math.ceil(seconds);
  if (whole < 60) return `${whole}s`;
  return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`;
}

/** Starts the display on stderr. */
export function startProgress(total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = performance.now();
  const bar = new cliProgress.SingleBar({
    stream,
    format: '{bar} {value}/{total} | {speed}/s | 429s {limited} | ETA {remaining}',
    noTTYOutput: true,
    notTTYSchedule: 1000,
    hideCursor: stream.isTTY === true,
    barsize: 30,
  });
  bar.start(total, 0, { speed: '0.0', limited: 0, remaining: '?' });
  return {
    update({ done, before = 0, total: all, rateLimited, rate }) {
      const seconds = (performance.now() - started) / 1000;
      const speed = seconds > 0 ? (done - before) / seconds : 0;
      const expected = rate ?? speed;
      bar.setTotal(all);
      bar.update(done, {
        speed: speed.toFixed(1),
        limited: rateLimited,
        remaining: eta(expected > 0 ? (all - done) / expected : Number.POSITIVE_INFINITY),
      });
    },
    stop: () => bar.stop(),
  };
}

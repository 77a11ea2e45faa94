import { type Clock, systemClock } from '../core/clock.js';

/** The HTTP `Date` text of an epoch-ms time, formatted once per second of it. */
function perSecond(): (wallNowMs: number) => string {
  let second = Number.NaN;
  let text = '';
  return (wallNowMs) => {
    const now = Math.floor(wallNowMs / 1000);
    if (now !== second) {
      second = now;
      text = new Date(wallNowMs).toUTCString();
    }
    return text;
  };
}

let systemText: string | undefined;
const systemAt = perSecond();

/**
 * The `Date` text of now on the system clock without reading the clock per call: formatted on
 * first use and forgotten by a timer at the next second, as Node writes its own `Date` header
 * (so a `node:http` response that sends its own `Date` sends this same text).
 */
export function systemDateText(): string {
  if (systemText === undefined) {
    const now = Date.now();
    systemText = systemAt(now);
    setTimeout(forgetSystemText, 1000 - (now % 1000)).unref();
  }
  return systemText;
}

function forgetSystemText(): void {
  systemText = undefined;
}

/**
 * How a limiter on `clock` writes `Date`: `at(wallNowMs)` for a time it has read anyway (one reading
 * for `Date` and an epoch reset), `now()` otherwise — on the system clock with no clock read per
 * response, on any other clock from one `wallNow()`.
 */
export function dateTextOf(clock: Clock): { at: (wallNowMs: number) => string; now: () => string } {
  const at = perSecond();
  return { at, now: clock === systemClock ? systemDateText : () => at(clock.wallNow()) };
}

/**
 * What `headway demo` runs: one reference server (a token bucket per client, IETF headers) and the
 * same job from each client, at once, each on its own key (`/jobs/<client>/<n>`). Written once here
 * so the run, the views, the report and the tests agree.
 */

/** The server's sustained rate per client, requests per second. */
export const RATE = 25;
/** The server's burst per client. */
export const BURST = 15;
/** GETs in each client's job. */
export const JOB = 125;
/** Callers working through the job at once, per client. */
export const CALLERS = 8;
/** Width of one time bin of the charts and the per-second view, in ms. */
export const BIN_MS = 100;
/** The fastest any client can finish the job: the burst at once, the rest at the rate. */
export const MINIMUM_S = (JOB - BURST) / RATE;

/** One client of the demo. */
export interface DemoClientInfo {
  /** Key on the server and in the URL path. */
  id: string;
  label: string;
  /** What it does with a 429, in a few words. */
  behaviour: string;
  /** Expected to see almost no refusals (≤ 1 %). */
  wellBehaved: boolean;
}

/** The clients every run has, in display order. */
export const nodeClients: readonly DemoClientInfo[] = [
  {
    id: 'bad',
    label: 'badly-behaved',
    behaviour: 'retries at once, ignores Retry-After',
    wellBehaved: false,
  },
  {
    id: 'naive',
    label: 'naive',
    behaviour: 'sleeps Retry-After, each caller on its own',
    wellBehaved: false,
  },
  {
    id: 'headway',
    label: 'Headway unconfigured',
    behaviour: 'learns the limit from the headers',
    wellBehaved: true,
  },
  {
    id: 'configured',
    label: `Headway rate ${RATE}, burst ${BURST}`,
    behaviour: 'paces to the configured bucket',
    wellBehaved: true,
  },
];

/** The client that runs in the browser on the live page (Headway's browser bundle, unconfigured). */
export const browserClient: DemoClientInfo = {
  id: 'browser',
  label: 'Headway in the browser',
  behaviour: 'the browser bundle, unconfigured',
  wellBehaved: true,
};

/** The path of call `n` of client `id`. */
export function jobPath(id: string, n: number): string {
  return `/jobs/${id}/${n}`;
}

/** The client a request path belongs to (its server key). */
export function clientOfPath(url: string): string {
  return new URL(url, 'http://localhost').pathname.split('/')[2] ?? 'other';
}

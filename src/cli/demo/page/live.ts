/**
 * Browser code of the live page: draws the run as it arrives (server-sent events) and runs one of
 * the clients itself, with Headway's browser bundle (`/headway.js`, the global `Headway`).
 */
import type * as HeadwayModule from '../../../index.js';
import type { DemoData } from '../recorder.js';
import { CALLERS, JOB, jobPath } from '../scenario.js';
import { chartPoints, drawCharts, updateCharts } from './charts.js';

declare const Headway: typeof HeadwayModule;

/** What the page tells the demo about its client: calls finished, waits chosen, the end. */
export type BrowserEvent =
  | { type: 'finished'; ok: boolean }
  | { type: 'waited'; ms: number }
  | { type: 'done'; ok: number; refused: number; failed: number };

const pending: BrowserEvent[] = [];
async function flush(): Promise<void> {
  if (pending.length === 0) return;
  const events = pending.splice(0);
  await fetch('/browser-events', { method: 'POST', body: JSON.stringify(events) });
}

/** The browser's job: {@link JOB} GETs by {@link CALLERS} callers through an unconfigured Headway fetch. */
async function runBrowserJob(serverUrl: string): Promise<void> {
  const fetch = Headway.createFetch();
  fetch.onThrottle((event) => pending.push({ type: 'waited', ms: event.waitMs }));
  let refused = 0;
  fetch.onRateLimited(() => {
    refused++;
  });
  const timer = setInterval(() => void flush(), 100);
  let next = 0;
  let ok = 0;
  let failed = 0;
  // Readable only when the server exposes them (CORS `Access-Control-Expose-Headers`).
  let headersReadable = false;
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (next < JOB) {
        const n = next++;
        const res = await fetch(serverUrl + jobPath('browser', n)).catch(() => undefined);
        await res?.arrayBuffer().catch(() => undefined);
        if (res?.headers.get('ratelimit') && res.headers.get('ratelimit-policy')) headersReadable = true;
        if (res?.status === 200) ok++;
        else failed++;
        pending.push({ type: 'finished', ok: res?.status === 200 });
      }
    }),
  );
  clearInterval(timer);
  pending.push({ type: 'done', ok, refused, failed });
  await flush();
  document.body.dataset.browserClient = JSON.stringify({ ok, refused, failed, headersReadable });
}

const root = document.getElementById('charts')!;
const status = document.getElementById('status')!;
let charts: ReturnType<typeof drawCharts> | undefined;
const events = new EventSource('/events');
events.addEventListener('hello', (event) => {
  const { serverUrl } = JSON.parse((event as MessageEvent<string>).data) as { serverUrl: string };
  status.textContent = `Running against ${serverUrl} …`;
  void runBrowserJob(serverUrl);
});
events.addEventListener('tick', (event) => {
  const data = JSON.parse((event as MessageEvent<string>).data) as DemoData;
  if (charts) updateCharts(charts, data);
  else charts = drawCharts(root, data);
  Object.assign(window, { headwayCharts: chartPoints(charts) });
});
events.addEventListener('done', (event) => {
  const { summaryHtml, reportPath } = JSON.parse((event as MessageEvent<string>).data) as {
    summaryHtml: string;
    reportPath: string;
  };
  status.textContent = `Done. The report is at ${reportPath}`;
  document.getElementById('summary')!.innerHTML = summaryHtml;
  events.close();
});

import { constants } from 'node:fs';
import { access, mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { reportBundle, repositoryRoot } from './bundle.js';
import { parseDemoArgs } from './demo-args.js';
import { type LivePage, startLivePage } from './live-server.js';
import { reportHtml, summaryHtml } from './page-html.js';
import type { Recorder } from './recorder.js';
import { type DemoResult, prepareDemo } from './run.js';
import { browserClient, nodeClients } from './scenario.js';
import { summaryTable, terminalView } from './terminal-view.js';

/** How long the run waits for the browser client to finish before it reports without it. */
const BROWSER_TIMEOUT_MS = 30_000;

/** Feeds the browser client's reports into the record; resolves when it is done (or times out). */
function browserJob(live: LivePage, recorder: Recorder): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, BROWSER_TIMEOUT_MS);
    live.onBrowserEvents((events) => {
      for (const event of events) {
        if (event.type === 'finished') recorder.finished(browserClient.id, event.ok);
        else if (event.type === 'waited') recorder.waited(browserClient.id, event.ms);
        else {
          recorder.jobDone(browserClient.id);
          clearTimeout(timer);
          done();
        }
      }
    });
  });
}

/** Refuses a report path that cannot be written (a directory, a folder without write access). */
async function checkReportPath(out: string): Promise<void> {
  const path = resolve(out);
  await mkdir(dirname(path), { recursive: true });
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory()) throw new Error(`--out ${out}: EISDIR, a directory, not a file`);
  await access(dirname(path), constants.W_OK);
}

/** Writes the report of `result` to `out`; returns its absolute path. */
async function writeReport(result: DemoResult, out: string): Promise<string> {
  const path = resolve(out);
  await mkdir(dirname(path), { recursive: true });
  const html = reportHtml({
    rows: result.summary,
    dataJson: JSON.stringify(result.data),
    script: await reportBundle(),
    when: `${new Date().toISOString().replace('T', ' ').slice(0, 19)} UTC`,
  });
  await writeFile(path, html);
  return path;
}

/**
 * `headway demo`: the reference server and four clients doing the same job against it, drawn live
 * in the terminal (or on a page with `--live`), then the summary and the path of the report.
 */
export async function demo(args: string[]): Promise<void> {
  const options = parseDemoArgs(args);
  repositoryRoot(); // fails at once outside a clone
  // A reader that closes early (`npm start | head`) ends the drawing, not the run: the report is
  // still written (an unhandled EPIPE would end the process with a stack trace).
  process.stdout.on('error', () => {});
  // A report path it cannot write is refused before the run, not after it.
  await checkReportPath(options.out);
  // The live page first: a port it cannot have must not leave the demo's server running.
  const live = options.live ? await startLivePage(options) : undefined;
  const prepared = await prepareDemo().catch(async (error: unknown) => {
    await live?.close();
    throw error;
  });
  try {
    if (live) {
      process.stdout.write(`headway demo: open ${live.url} — the run starts when the page connects\n`);
      await live.connected;
      live.send('hello', { serverUrl: prepared.serverUrl });
    }
    const view = terminalView(process.stdout);
    const result = await prepared.run({
      clients: live ? [...nodeClients, browserClient] : nodeClients,
      tickMs: 100,
      onTick: (data) => {
        view.tick(data);
        live?.send('tick', data);
      },
      ...(live ? { others: (recorder: Recorder) => browserJob(live, recorder) } : {}),
    });
    view.done(result.data);
    // The measured table first: a report that then cannot be written loses nothing of it.
    process.stdout.write(`\n${summaryTable(result.summary)}\n`);
    const reportPath = await writeReport(result, options.out);
    live?.send('done', { summaryHtml: summaryHtml(result.summary), reportPath });
    process.stdout.write(`\nreport: ${reportPath}\n`);
  } finally {
    await live?.close();
    await prepared.close();
  }
}

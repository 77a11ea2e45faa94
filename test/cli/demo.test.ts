import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoData } from '../../src/cli/demo/recorder.js';
import { BURST, browserClient, JOB, nodeClients } from '../../src/cli/demo/scenario.js';
import { summarize } from '../../src/cli/demo/summary.js';
import { chromiumPath, launchChromium, noChromium } from '../support/chromium.js';

const chromium = chromiumPath();
if (!chromium) console.warn(noChromium);

const dir = mkdtempSync(join(tmpdir(), 'headway-demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Demos still running, killed when the file ends: a test that times out never reaches its own
 * `finally`, and a `--live` demo left so once outlived the whole run.
 */
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill();
});

/** Starts `headway demo` with `args` (stdout is a pipe: plain lines, no terminal control). */
function startDemo(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'demo', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
  return { child, exited };
}

/** The record embedded in a report. */
function reportData(html: string): DemoData {
  const json = html.match(/<script type="application\/json" id="demo-data">(.*?)<\/script>/s)?.[1];
  expect(json).toBeDefined();
  return JSON.parse(json!) as DemoData;
}

/** Collects what would show as console errors on `page`. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return errors;
}

describe('headway demo (CLI)', () => {
  let run: { code: number | null; stdout: string; stderr: string };
  let reportPath: string;

  beforeAll(async () => {
    run = await startDemo(['--out', join(dir, 'report.html')]).exited;
    reportPath = run.stdout.match(/^report: (.+)$/m)?.[1] ?? '';
  }, 60_000);

  it('exits 0 and prints the summary and the report path', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(reportPath).toBe(join(dir, 'report.html'));
    for (const client of nodeClients) expect(run.stdout).toContain(client.label);
    expect(run.stdout).toMatch(
      /^t=\d+\.\ds bad done=\d+\/\d+ admitted\/s=\d+ refused\/s=\d+ bucket=\d+ gate=-$/m,
    );
  });

  it('well-behaved clients see ≤ 1 % 429s, the badly-behaved one ≥ 30 %, every call done; the table prints the run', () => {
    const data = reportData(readFileSync(reportPath, 'utf8'));
    const rows = summarize(data.clients);
    expect(rows.map((r) => r.id)).toEqual(nodeClients.map((c) => c.id));
    for (const row of rows) {
      expect(row.ok).toBe(JOB);
      expect(row.admitted).toBe(JOB);
      if (row.wellBehaved) expect(row.refusedShare).toBeLessThanOrEqual(0.01);
      // The table's line for this client carries its own figures (admitted, refused).
      expect(run.stdout).toMatch(
        new RegExp(`^${row.label}\\s+${JOB}\\s+0\\s+${row.admitted}\\s+${row.refused}\\s`, 'm'),
      );
    }
    expect(rows.find((r) => r.id === 'bad')!.refusedShare).toBeGreaterThanOrEqual(0.3);
    expect(rows.filter((r) => r.wellBehaved)).toHaveLength(2);
  });

  it.skipIf(!chromium)(
    'the report opens offline with no console errors, and every chart has its points',
    async () => {
      const browser = await launchChromium(chromium!);
      try {
        const page = await browser.newPage({ viewport: { width: 960, height: 900 } });
        const errors = consoleErrors(page);
        const requests: string[] = [];
        page.on('request', (request) => requests.push(request.url()));
        await page.goto(`file://${reportPath}`);
        const charts = (await page.evaluate('window.headwayCharts')) as Array<{
          title: string;
          points: number[];
        }>;
        expect(errors).toEqual([]);
        expect(requests).toEqual([`file://${reportPath}`]); // nothing fetched: self-contained
        expect(charts).toHaveLength(5);
        for (const chart of charts) {
          expect(chart.points).toHaveLength(nodeClients.length);
          for (const points of chart.points) expect(points, chart.title).toBeGreaterThan(0);
        }
        expect(await page.locator('canvas').count()).toBeGreaterThanOrEqual(5);
        if (process.env.HEADWAY_SCREENSHOT)
          await page.screenshot({ path: process.env.HEADWAY_SCREENSHOT, fullPage: true });
      } finally {
        await browser.close();
      }
    },
    30_000,
  );

  it.skipIf(!chromium)(
    '--live: the page follows the run, and its browser client finishes with at most the burst refused',
    async () => {
      const { child, exited } = startDemo(['--live', '--port', '0', '--out', join(dir, 'live.html')]);
      const browser = await launchChromium(chromium!);
      try {
        const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
        const url = line.match(/open (http:\/\/127\.0\.0\.1:\d+\/)/)?.[1];
        expect(url, line).toBeDefined();
        const page = await browser.newPage();
        const errors = consoleErrors(page);
        await page.goto(url!);
        const done = await page.waitForSelector('body[data-browser-client]', { timeout: 40_000 });
        const result = JSON.parse((await done.getAttribute('data-browser-client'))!) as {
          ok: number;
          refused: number;
          failed: number;
          headersReadable: boolean;
        };
        expect(result).toMatchObject({ ok: JOB, failed: 0, headersReadable: true });
        expect(result.refused).toBeLessThanOrEqual(BURST);
        await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Done'));
        const charts = (await page.evaluate('window.headwayCharts')) as Array<{ points: number[] }>;
        for (const chart of charts) expect(chart.points).toHaveLength(nodeClients.length + 1);
        expect(errors).toEqual([]);
        const { code, stdout } = await exited;
        expect(code).toBe(0);
        expect(stdout).toContain(browserClient.label);
        expect(stdout).toContain(`report: ${join(dir, 'live.html')}`);
      } finally {
        child.kill();
        await browser.close();
      }
    },
    60_000,
  );
});

import { uplotCss } from './bundle.js';
import { BURST, CALLERS, JOB, MINIMUM_S, RATE } from './scenario.js';
import { reading, type SummaryRow, summaryCells } from './summary.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Text that may sit inside a `<script>` element (JS or JSON). */
const scriptSafe = (text: string) => text.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '<\\!--');

const style = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 940px; color: #222; padding: 0 12px; }
h1 { font-size: 22px; margin-bottom: 4px; }
.setup, #status { color: #555; }
figure.chart { margin: 18px 0; }
table { border-collapse: collapse; margin: 12px 0; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 10px; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
`;

/** The summary as an HTML table. */
export function summaryHtml(rows: readonly SummaryRow[]): string {
  const { head, body } = summaryCells(rows);
  const cells = (row: string[], tag: string) => row.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join('');
  return `<table><thead><tr>${cells(head, 'th')}</tr></thead><tbody>${body
    .map((row) => `<tr>${cells(row, 'td')}</tr>`)
    .join('')}</tbody></table><p class="reading">${escapeHtml(reading(rows))}</p>`;
}

/** The setup in one line. */
const setup = `One reference server, a token bucket of ${RATE} requests/s with a burst of ${BURST} per client (IETF RateLimit headers); each client does the same job of ${JOB} GETs with ${CALLERS} callers at once. The fastest possible finish is (${JOB} − ${BURST}) / ${RATE} = ${MINIMUM_S.toFixed(2)} s.`;

/** A page of the demo: uPlot's styles, a title, the charts' place and the given scripts. */
function page(options: { title: string; body: string; scripts: string[] }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(options.title)}</title>
<style>${uplotCss()}${style}</style></head>
<body><h1>${escapeHtml(options.title)}</h1><p class="setup">${escapeHtml(setup)}</p>
${options.body}
${options.scripts.join('\n')}
</body></html>
`;
}

/** The report: one self-contained file (data, uPlot and the charts' script inlined). */
export function reportHtml(options: {
  rows: readonly SummaryRow[];
  dataJson: string;
  script: string;
  when: string;
}): string {
  return page({
    title: 'Headway demo: the rate-limit contract, both halves',
    body: `<p class="setup">Run of ${escapeHtml(options.when)}.</p>${summaryHtml(options.rows)}<div id="charts"></div>`,
    scripts: [
      `<script type="application/json" id="demo-data">${scriptSafe(options.dataJson)}</script>`,
      `<script>${scriptSafe(options.script)}</script>`,
    ],
  });
}

/** The live page: charts fed by `/events`; `/headway.js` (the browser bundle) runs one client. */
export function livePageHtml(): string {
  return page({
    title: 'Headway demo, live',
    body: '<p id="status">Connecting…</p><div id="summary"></div><div id="charts"></div>',
    scripts: ['<script src="/headway.js"></script>', '<script src="/live.js"></script>'],
  });
}

import { createLogUpdate } from 'log-update';
import type { ClientSeries, DemoData } from './recorder.js';
import { BIN_MS, BURST, JOB, RATE } from './scenario.js';
import { type SummaryRow, summaryCells } from './summary.js';

/** Bins in one second. */
const SECOND = 1000 / BIN_MS;

/** What a client did in the last second: admitted, refused, the server bucket's level. */
function lastSecond(client: ClientSeries) {
  const from = Math.max(0, client.admitted.length - SECOND);
  const total = (values: number[]) => values.slice(from).reduce((a, b) => a + b, 0);
  const level = client.level.findLast((value) => value !== null);
  return { admitted: total(client.admitted), refused: total(client.refused), level: level ?? BURST };
}

/** Pads every column of `rows` to its widest cell. */
export function columns(rows: readonly string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function bar(done: number, width = 20): string {
  const filled = Math.round((done / JOB) * width);
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
}

/** The live view: one line per client (progress, per second, the bucket, the gate). */
export function frame(data: DemoData): string {
  const rows = [
    ['client', 'progress', '', 'ok/s', '429/s', 'bucket', 'gate'],
    ...data.clients.map((c) => {
      const s = lastSecond(c);
      const done = c.done.at(-1) ?? 0;
      return [
        c.label,
        bar(done),
        `${done}/${JOB}`,
        String(s.admitted),
        String(s.refused),
        `${s.level}/${BURST}`,
        c.gate ?? '—',
      ];
    }),
  ];
  return `Headway demo · server: ${RATE}/s, burst ${BURST} per client · ${data.elapsedS.toFixed(1)} s\n\n${columns(rows)}`;
}

/** One plain line per client (no terminal control), for logs and pipes. */
export function plainLines(data: DemoData): string {
  return data.clients
    .map((c) => {
      const s = lastSecond(c);
      return `t=${data.elapsedS.toFixed(1)}s ${c.id} done=${c.done.at(-1) ?? 0}/${JOB} admitted/s=${s.admitted} refused/s=${s.refused} bucket=${s.level} gate=${c.gate ?? '-'}`;
    })
    .join('\n');
}

/** Draws the run: redrawn in place on a TTY (log-update), else plain lines once a second. */
export function terminalView(stream: NodeJS.WriteStream): {
  tick(data: DemoData): void;
  done(data: DemoData): void;
} {
  if (stream.isTTY) {
    const draw = createLogUpdate(stream);
    return {
      tick: (data) => draw(frame(data)),
      done: (data) => {
        draw(frame(data));
        draw.done();
      },
    };
  }
  let printedSecond = -1;
  return {
    tick(data) {
      const second = Math.floor(data.elapsedS);
      if (second === printedSecond) return;
      printedSecond = second;
      stream.write(`${plainLines(data)}\n`);
    },
    done: (data) => stream.write(`${plainLines(data)}\n`),
  };
}

/** The summary table as text. */
export function summaryTable(rows: readonly SummaryRow[]): string {
  const { head, body } = summaryCells(rows);
  return columns([head, ...body]);
}

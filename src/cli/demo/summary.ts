import type { ClientSeries } from './recorder.js';
import { MINIMUM_S } from './scenario.js';

/** One client's line of the summary, from the run's record. */
export interface SummaryRow {
  id: string;
  label: string;
  behaviour: string;
  wellBehaved: boolean;
  /** Calls that ended with a 200. */
  ok: number;
  failed: number;
  /** Requests the server admitted and refused (429) for this client. */
  admitted: number;
  refused: number;
  /** Refused ÷ every request the server saw from the client. */
  refusedShare: number;
  /** Seconds until the job was done (`null`: not done). */
  seconds: number | null;
  /** `seconds` ÷ the theoretical minimum. */
  timesMinimum: number | null;
  /** Total waiting the client chose, in seconds (summed over its callers). */
  waitedS: number;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** The summary rows of a record. */
export function summarize(clients: readonly ClientSeries[]): SummaryRow[] {
  return clients.map((c) => {
    const admitted = sum(c.admitted);
    const refused = sum(c.refused);
    const done = c.done.at(-1) ?? 0;
    return {
      id: c.id,
      label: c.label,
      behaviour: c.behaviour,
      wellBehaved: c.wellBehaved,
      ok: done - c.failed,
      failed: c.failed,
      admitted,
      refused,
      refusedShare: admitted + refused === 0 ? 0 : refused / (admitted + refused),
      seconds: c.finishedS,
      timesMinimum: c.finishedS === null ? null : c.finishedS / MINIMUM_S,
      waitedS: sum(c.waitedMs) / 1000,
    };
  });
}

/** Column titles and cells of the summary, as text (the terminal table and the report's table). */
export function summaryCells(rows: readonly SummaryRow[]): { head: string[]; body: string[][] } {
  return {
    head: ['client', 'ok', 'failed', 'admitted', 'refused (429)', '429 share', 'time', '× minimum', 'waited'],
    body: rows.map((r) => [
      r.label,
      String(r.ok),
      String(r.failed),
      String(r.admitted),
      String(r.refused),
      `${(r.refusedShare * 100).toFixed(1)} %`,
      r.seconds === null ? 'not done' : `${r.seconds.toFixed(2)} s`,
      r.timesMinimum === null ? '—' : `${r.timesMinimum.toFixed(2)} ×`,
      `${r.waitedS.toFixed(1)} s`,
    ]),
  };
}

/** Two sentences on what the run shows, with its own figures. */
export function reading(rows: readonly SummaryRow[]): string {
  const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
  const time = (row: SummaryRow | undefined) =>
    row?.seconds == null ? 'not done' : `${row.seconds.toFixed(2)} s`;
  const bad = rows.find((r) => r.id === 'bad');
  const naive = rows.find((r) => r.id === 'naive');
  const headway = rows.filter((r) => r.wellBehaved);
  const worst = Math.max(0, ...headway.map((r) => r.refusedShare));
  const unfinished = headway.some((r) => r.seconds === null);
  const slowest = unfinished ? 'not done' : `${Math.max(...headway.map((r) => r.seconds ?? 0)).toFixed(2)} s`;
  return (
    `The badly-behaved client sent ${(bad?.admitted ?? 0) + (bad?.refused ?? 0)} requests for ${bad?.ok ?? 0} calls (${percent(bad?.refusedShare ?? 0)} refused, the red spikes) and finished in ${time(bad)}; ` +
    `the naive one slept ${naive?.waitedS.toFixed(1) ?? 0} s on Retry-After across its callers and finished in ${time(naive)}. ` +
    `Headway spent the burst at once and then paced at the server's refill rate, so at most ${percent(worst)} of its requests were refused, finishing within ${slowest} against a minimum of ${MINIMUM_S.toFixed(2)} s.`
  );
}

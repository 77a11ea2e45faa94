/**
 * Browser code: the demo's charts, drawn with uPlot (bundled into the report and the live page).
 * Nothing here reads the DOM beyond the container it is given.
 */
import uPlot from 'uplot';
import type { ClientSeries, DemoData } from '../recorder.js';

/** One chart: its title and which series of a client it draws. */
interface ChartSpec {
  title: string;
  values: (client: ClientSeries) => Array<number | null>;
}

const specs: ChartSpec[] = [
  { title: 'Calls of the job done', values: (c) => c.done },
  { title: 'Admitted per 100 ms', values: (c) => c.admitted },
  { title: 'Refused (429) per 100 ms', values: (c) => c.refused },
  { title: "Server bucket: units left for the client's key", values: (c) => c.level },
  { title: 'Waits the client chose (ms per 100 ms, all callers)', values: (c) => c.waitedMs },
];

const colors = ['#d62728', '#ff7f0e', '#1f77b4', '#2ca02c', '#9467bd'];

function table(spec: ChartSpec, data: DemoData): uPlot.AlignedData {
  const bins = Math.max(0, ...data.clients.map((c) => c.admitted.length));
  const x = Array.from({ length: bins }, (_, i) => ((i + 1) * data.binMs) / 1000);
  return [x, ...data.clients.map((c) => spec.values(c))];
}

/** Draws every chart of `data` into `root`; returns the uPlot instances (in `specs` order). */
export function drawCharts(root: HTMLElement, data: DemoData): uPlot[] {
  const width = Math.min(900, Math.max(480, root.clientWidth || 900));
  return specs.map((spec) => {
    const box = document.createElement('figure');
    box.className = 'chart';
    root.append(box);
    const options: uPlot.Options = {
      title: spec.title,
      width,
      height: 220,
      scales: { x: { time: false } },
      axes: [{ label: 'seconds since the start' }, {}],
      series: [
        { label: 's' },
        ...data.clients.map((c, i) => ({
          label: c.label,
          stroke: colors[i % colors.length],
          width: 1.5,
          spanGaps: true,
          points: { show: false },
        })),
      ],
    };
    return new uPlot(options, table(spec, data), box);
  });
}

/** Redraws `charts` (from {@link drawCharts}) with newer data. */
export function updateCharts(charts: readonly uPlot[], data: DemoData): void {
  charts.forEach((chart, i) => {
    chart.setData(table(specs[i]!, data));
  });
}

/** Points each chart holds per series (non-null values): what the browser check asserts on. */
export function chartPoints(charts: readonly uPlot[]): Array<{ title: string; points: number[] }> {
  return charts.map((chart, i) => ({
    title: specs[i]!.title,
    points: chart.data
      .slice(1)
      .map(
        (series) =>
          Array.from(series as ArrayLike<number | null | undefined>).filter((v) => v != null).length,
      ),
  }));
}

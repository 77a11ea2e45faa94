/** Browser code of the report: draws the charts from the data embedded in the page. */
import type { DemoData } from '../recorder.js';
import { chartPoints, drawCharts } from './charts.js';

const data = JSON.parse(document.getElementById('demo-data')!.textContent!) as DemoData;
const charts = drawCharts(document.getElementById('charts')!, data);
/** For the browser check: the points of every chart. */
Object.assign(window, { headwayCharts: chartPoints(charts) });

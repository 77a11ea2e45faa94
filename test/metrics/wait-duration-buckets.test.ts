/**
 * `headway.client.wait.duration` is a histogram in seconds (README "Metrics": unit `s`). The SDK's
 * default explicit buckets, `[0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500,
 * 10000]`, are shaped for milliseconds (OpenTelemetry specification, "Explicit Bucket Histogram
 * Aggregation"); an instrument recorded in seconds states its own boundaries through the API's
 * `advice.explicitBucketBoundaries`, as the semantic conventions do for durations in seconds
 * (`http.client.request.duration`: `[0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1,
 * 2.5, 5, 7.5, 10]`). Without them every wait under 5 s falls in one bucket: a dashboard's
 * quantiles cannot tell a 1 s `Retry-After` from a 3 s one.
 */
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { clientMetrics, instruments } from '../../src/metrics/index.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';

const A = 'http://a.test';
const B = 'http://b.test';

interface Buckets {
  boundaries: number[];
  counts: number[];
}

describe('headway.client.wait.duration buckets', () => {
  it('a 1 s and a 3 s Retry-After wait land in different buckets', async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 2 ** 30 });
    const provider = new MeterProvider({ readers: [reader] });
    const clock = new ManualClock();
    // Each key refuses its first call: a.test with Retry-After: 1, b.test with Retry-After: 3.
    const first = new Set<string>();
    const server = fakeFetch(clock, (seen) => {
      const origin = new URL(seen.url).origin;
      if (first.has(origin)) return { status: 200 };
      first.add(origin);
      return { status: 429, headers: { 'retry-after': origin === A ? '1' : '3' } };
    });
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    const stop = clientMetrics(fetch, { meter: provider.getMeter('headway') });
    await runUntilSettled(clock, [fetch(`${A}/1`), fetch(`${B}/1`)]);

    await reader.forceFlush();
    const metric = exporter
      .getMetrics()
      .flatMap((r) => r.scopeMetrics)
      .flatMap((s) => s.metrics)
      .find((m) => m.descriptor.name === instruments.clientWait.name);
    /** Upper bounds (`le`) of the buckets holding `key`'s gate waits. */
    const bucketsOf = (key: string) => {
      const point = metric?.dataPoints.find(
        (p) => p.attributes['headway.key'] === key && p.attributes['headway.wait.reason'] === 'gate',
      );
      expect(point).toBeDefined();
      const { boundaries, counts } = (point?.value as { buckets: Buckets } | undefined)?.buckets ?? {
        boundaries: [],
        counts: [],
      };
      return counts.flatMap((count, i) => (count > 0 ? [boundaries[i] ?? Number.POSITIVE_INFINITY] : []));
    };
    const oneSecond = bucketsOf(A);
    const threeSeconds = bucketsOf(B);
    expect(oneSecond).toHaveLength(1);
    expect(threeSeconds).toHaveLength(1);
    expect(oneSecond[0]).toBeLessThan(threeSeconds[0] as number);
    stop();
    await provider.shutdown();
  });
});

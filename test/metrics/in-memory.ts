/**
 * The OpenTelemetry SDK with its in-memory exporter, for the metrics tests: `collect()` flushes the
 * reader and returns each instrument's points (attributes and value) by name, with its unit.
 */
import type { Meter } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';

/** One point: its attributes and its value (a histogram's count and sum). */
export interface Point {
  attributes: Record<string, unknown>;
  value: number | { count: number; sum: number };
}

/** A meter backed by the SDK, and what it recorded. */
export interface InMemoryMeter {
  meter: Meter;
  collect(): Promise<Map<string, { unit: string; points: Point[] }>>;
  shutdown(): Promise<void>;
}

export function inMemoryMeter(): InMemoryMeter {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exported only on forceFlush: the interval is far beyond any test.
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 2 ** 30 });
  const provider = new MeterProvider({ readers: [reader] });
  return {
    meter: provider.getMeter('headway'),
    async collect() {
      exporter.reset();
      await reader.forceFlush();
      const byName = new Map<string, { unit: string; points: Point[] }>();
      for (const resource of exporter.getMetrics())
        for (const scope of resource.scopeMetrics)
          for (const metric of scope.metrics)
            byName.set(metric.descriptor.name, {
              unit: metric.descriptor.unit,
              points: metric.dataPoints.map((p) => ({
                attributes: { ...p.attributes },
                value:
                  metric.dataPointType === DataPointType.HISTOGRAM
                    ? {
                        count: (p.value as { count: number }).count,
                        sum: (p.value as { sum: number }).sum,
                      }
                    : (p.value as number),
              })),
            });
      return byName;
    },
    shutdown: () => provider.shutdown(),
  };
}

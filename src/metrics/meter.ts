import { type Meter, metrics } from '@opentelemetry/api';
import { meterName } from './names.js';

/** Options of the metrics bindings. */
export interface MetricsOptions {
  /**
   * Where instruments are created. @default the global `MeterProvider`'s `headway` meter: a
   * no-op until an OpenTelemetry SDK is registered
   */
  meter?: Meter;
}

/** The meter to record on: the given one, else the global provider's. */
export function meterOf(options: MetricsOptions | undefined): Meter {
  return options?.meter ?? metrics.getMeter(meterName);
}

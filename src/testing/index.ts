/**
 * Headway, test helpers: a clock that moves only when told to, and the reference server with its
 * fault injection (`latencyMs`, `failForMs`, `clockSkewMs`), for testing code that uses Headway.
 * @packageDocumentation
 */
export { ManualClock } from '../core/manual-clock.js';
export type { RunningServer, ServeOptions } from '../server/serve.js';
export { serveDefaults, startServer } from '../server/serve.js';

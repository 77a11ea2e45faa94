/**
 * Headway for undici (`headway/undici`): the client engine as an undici interceptor, and
 * `installGlobal()` to pace the process's global dispatcher (the built-in `fetch`, `undici.request`).
 * Importing this entry imports `undici`, which sets its global dispatcher (see the README's caveats).
 * @packageDocumentation
 */

export type { EngineEvents } from '../client/engine.js';
export type { GlobalUninstall } from './install-global.js';
export { installGlobal } from './install-global.js';
export type { HeadwayInterceptor, InterceptorOptions } from './interceptor.js';
export { headwayInterceptor } from './interceptor.js';

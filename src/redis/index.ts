/**
 * Headway, Redis store: one atomic quota shared by many processes.
 * @packageDocumentation
 */
export type { Clock } from '../core/clock.js';

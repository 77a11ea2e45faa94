import type { PacerOptions } from '../../src/client/pacer.js';
import { defaultBackoff } from '../../src/core/backoff.js';

/** A pacer's options as an unconfigured key has them, with `o` over them (the pacer tests' one place). */
export const pacerOptions = (o: Partial<PacerOptions> = {}): PacerOptions => ({
  rate: undefined,
  burst: undefined,
  maxInFlight: Number.POSITIVE_INFINITY,
  maxConcurrent: Number.POSITIVE_INFINITY,
  paced: true,
  spread: false,
  backoff: defaultBackoff,
  ...o,
});

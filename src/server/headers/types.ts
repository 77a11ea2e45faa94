import type { Decision } from '../../stores/store.js';
import type { ResolvedPolicy } from '../policy.js';

/** Header dialects the limiter can write. */
export type HeaderDialect = 'ietf' | 'draft-7' | 'draft-6' | 'x-ratelimit' | 'none';

/** Header name/value pairs, in order. */
export type HeaderList = Array<[name: string, value: string]>;

/** What a dialect writes from. `decision` is `undefined` when the store failed (policy headers only). */
export interface HeaderInput {
  policy: ResolvedPolicy;
  decision: Decision | undefined;
  /** Wall-clock epoch ms of the response (for epoch resets). */
  wallNowMs: number;
}

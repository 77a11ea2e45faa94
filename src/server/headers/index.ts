import { draft6Headers } from './draft6.js';
import { draft7Headers } from './draft7.js';
import { ietfHeaders } from './ietf.js';
import type { HeaderDialect, HeaderInput, HeaderList } from './types.js';
import { xRateLimitHeaders } from './x-ratelimit.js';

/** One writer per dialect. */
export const dialects: Readonly<Record<HeaderDialect, (input: HeaderInput) => HeaderList>> = {
  ietf: ietfHeaders,
  'draft-7': draft7Headers,
  'draft-6': draft6Headers,
  'x-ratelimit': xRateLimitHeaders,
  none: () => [],
};

/** Every dialect name. */
export const dialectNames = Object.keys(dialects) as HeaderDialect[];

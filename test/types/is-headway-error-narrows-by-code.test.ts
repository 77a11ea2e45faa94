/**
 * README, errors: each entry has its own copy of the error classes, "so test errors with
 * `isHeadwayError(e)` or `isHeadwayError(e, code)`, which work across entries and package copies,
 * rather than `instanceof`"; the errors a call gives up with "carry the key, the attempts and their
 * statuses (`error.facts`)", and `RateLimitedError` "carries `retryAt` and … `window`". The
 * documented replacement for `instanceof` must therefore give a TypeScript user those documented
 * fields: a guard on `HEADWAY_RATE_LIMITED` narrows to `RateLimitedError`, as `instanceof` would.
 * The block is type-checked under the project's own compiler options (strict), `headway` mapped to
 * `src/` as in tsconfig.json (the same way as test/docs/readme-snippets.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { typeCheck } from './type-check.js';

describe('isHeadwayError(e, code) narrows to the error class of that code', () => {
  it('a caller reads retryAt, window and facts of a HEADWAY_RATE_LIMITED error without a cast', () => {
    const code = [
      "import { createFetch, isHeadwayError } from 'headway';",
      'const fetch = createFetch();',
      'export async function get(url: string): Promise<string> {',
      '  try {',
      '    return await (await fetch(url)).text();',
      '  } catch (e) {',
      "    if (isHeadwayError(e, 'HEADWAY_RATE_LIMITED')) {",
      '      const at: number = e.retryAt;',
      '      const window: string | null = e.window;',
      "      return e.facts.key + ' limited until ' + at + ' ' + window;",
      '    }',
      "    if (isHeadwayError(e, 'HEADWAY_QUEUE_FULL')) return e.key + ' full at ' + e.maxQueue;",
      "    if (isHeadwayError(e, 'HEADWAY_TIMEOUT')) return e.facts.attempts + ' attempts of ' + e.timeoutMs + ' ms';",
      '    throw e;',
      '  }',
      '}',
      '',
    ].join('\n');
    expect(typeCheck(code, 'is-headway-error-by-code')).toEqual([]);
  }, 60_000);
});

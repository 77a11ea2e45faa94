/**
 * README, client options: `fetch` | fetch-like | `globalThis.fetch` at call time | "the transport
 * (undici's `fetch`, passed as `undiciFetch as unknown as typeof fetch`, …)". The form the README
 * gives must type-check, and the option must still refuse what is no fetch.
 * Type-checked under the project's own compiler options (strict), `headway` mapped to `src/` as in
 * tsconfig.json (as test/docs/readme-snippets.test.ts does).
 */
import { describe, expect, it } from 'vitest';
import { typeCheck } from './type-check.js';

describe("undici's fetch as createFetch's transport", () => {
  // undici's `Response` carries Node's web-stream types and the DOM's `Response` the DOM's, which
  // TypeScript holds apart (their `ReadableStream`s differ): the README's form casts once.
  it("createFetch({ fetch }) with undici's own fetch type-checks in the README's form", () => {
    const code = [
      "import { fetch as undiciFetch } from 'undici';",
      "import { createFetch } from 'headway';",
      'export const paced = createFetch({ fetch: undiciFetch as unknown as typeof fetch });',
      '',
    ].join('\n');
    expect(typeCheck(code, 'undici-fetch-transport')).toEqual([]);
  }, 60_000);

  it('a fetch that takes something else is refused', () => {
    const code = [
      "import { createFetch } from 'headway';",
      'export const paced = createFetch({ fetch: (n: number) => Promise.resolve(new Response(String(n))) });',
      '',
    ].join('\n');
    expect(typeCheck(code, 'undici-fetch-transport').join('\n')).toMatch(/TS2322/);
  }, 60_000);
});

/**
 * README, client options: `fetch` | fetch-like | `globalThis.fetch` at call time | "the transport
 * (undici's `fetch`, passed as `undiciFetch as unknown as typeof fetch`, …)". The form the README
 * gives must type-check, and the option must still refuse what is no fetch.
 * Type-checked under the project's own compiler options (strict), `headway` mapped to `src/` as in
 * tsconfig.json (as test/docs/readme-snippets.test.ts does).
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Type-checks `code` as one module of the repository; its diagnostics, one line each. */
function typeCheck(code: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json not read');
  const file = `${root}undici-fetch-transport.snippet.ts`;
  const host = ts.createCompilerHost(config.options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? code : readFile.call(host, name));
  host.getSourceFile = (name, language, ...rest) =>
    name === file
      ? ts.createSourceFile(name, code, language, true)
      : getSourceFile.call(host, name, language, ...rest);
  const program = ts.createProgram([file], config.options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === file)
    .map((d) => `TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 200)}`);
}

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
    expect(typeCheck(code)).toEqual([]);
  }, 60_000);

  it('a fetch that takes something else is refused', () => {
    const code = [
      "import { createFetch } from 'headway';",
      'export const paced = createFetch({ fetch: (n: number) => Promise.resolve(new Response(String(n))) });',
      '',
    ].join('\n');
    expect(typeCheck(code).join('\n')).toMatch(/TS2322/);
  }, 60_000);
});

/**
 * Headway is a Node package (`engines`: Node ≥ 22.19), and its `fetch` is "fetch's own signature"
 * (README, Example). A Node project type-checks against `@types/node` without the DOM library:
 * `@tsconfig/node22`, for one, sets `lib: ["es2024"]`. `@types/node` declares the global `fetch` as
 * `(input: string | URL | Request, init?: RequestInit)` and its `Request`, `RequestInit`, `Response`,
 * but not `RequestInfo`, a name of the DOM library only. The package's declarations must compile in
 * such a project, and `createFetch()` must keep `fetch`'s parameter types there.
 *
 * The main entry is built with its declarations by tsup (package.json's config) into a temporary
 * consumer's `node_modules/headway`, next to `@types/node` and Headway's own dependencies, and the
 * consumer is checked under `moduleResolution: nodenext`, `lib: es2024`, `types: ['node']`.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const modules = join(root, 'node_modules');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  tsup: Record<string, unknown>;
};
let consumer = '';

beforeAll(async () => {
  consumer = mkdtempSync(join(tmpdir(), 'headway-consumer-nodom-'));
  const installed = join(consumer, 'node_modules');
  const headway = join(installed, 'headway');
  mkdirSync(join(installed, '@types'), { recursive: true });
  await build({
    ...pkg.tsup,
    entry: { index: join(root, 'src/index.ts') },
    format: ['esm'],
    dts: true,
    sourcemap: false,
    clean: false,
    silent: true,
    config: false,
    outDir: join(headway, 'dist'),
  });
  cpSync(join(root, 'package.json'), join(headway, 'package.json'));
  for (const name of [...Object.keys(pkg.dependencies), 'undici-types'])
    symlinkSync(join(modules, name), join(installed, name));
  symlinkSync(join(modules, '@types/node'), join(installed, '@types/node'));
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(
    join(consumer, 'app.ts'),
    [
      "import { createFetch } from 'headway';",
      'const paced = createFetch({ rate: 10 });',
      'export const asFetch: typeof fetch = paced;',
      "export const answer: Promise<Response> = paced(new URL('https://api.example.com/items'));",
      '// A number is no URL: fetch refuses it at compile time, so must its drop-in.',
      '// @ts-expect-error',
      'paced(42);',
      '',
    ].join('\n'),
  );
}, 120_000);

afterAll(() => {
  if (consumer) rmSync(consumer, { recursive: true, force: true });
});

/** The consumer's diagnostics under a Node project's options (no DOM library). */
function check(skipLibCheck: boolean): string[] {
  const program = ts.createProgram([join(consumer, 'app.ts')], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2024.d.ts'],
    strict: true,
    noEmit: true,
    types: ['node'],
    skipLibCheck,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file ? d.file.fileName.slice(consumer.length) : ''}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
}

describe('headway type-checks in a Node project without the DOM library', () => {
  it("the package's declarations compile (skipLibCheck off, the compiler's default)", () => {
    expect(check(false)).toEqual([]);
  }, 60_000);

  it("createFetch()'s input keeps fetch's type (skipLibCheck on, as @tsconfig/node22 sets it)", () => {
    expect(check(true)).toEqual([]);
  }, 60_000);
});

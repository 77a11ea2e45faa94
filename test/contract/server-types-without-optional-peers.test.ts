/**
 * `express` and `hono` are optional peers (package.json `peerDependenciesMeta`), like `ioredis`,
 * whose entry "never imports ioredis, not even its types" (`src/redis/redis-client.ts`). A
 * TypeScript user of `headway/server` who uses `rateLimit` or `nodeRateLimit` alone, with neither
 * framework installed, must still type-check with the compiler's defaults (`skipLibCheck` off).
 * The `headway/server` entry is built with its declarations by tsup (package.json's config) into
 * a temporary consumer's `node_modules/headway`, next to `@types/node` and Headway's own
 * dependencies only, and the consumer is checked under `moduleResolution: nodenext`.
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
  consumer = mkdtempSync(join(tmpdir(), 'headway-consumer-'));
  const installed = join(consumer, 'node_modules');
  const headway = join(installed, 'headway');
  mkdirSync(join(installed, '@types'), { recursive: true });
  await build({
    ...pkg.tsup,
    entry: { 'server/index': join(root, 'src/server/index.ts') },
    format: ['esm'],
    dts: true,
    sourcemap: false,
    clean: false,
    silent: true,
    config: false,
    outDir: join(headway, 'dist'),
  });
  cpSync(join(root, 'package.json'), join(headway, 'package.json'));
  // What `npm install headway` brings: its dependencies (and theirs that declare types), no optional peer.
  for (const name of [...Object.keys(pkg.dependencies), 'undici-types'])
    symlinkSync(join(modules, name), join(installed, name));
  symlinkSync(join(modules, '@types/node'), join(installed, '@types/node'));
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(
    join(consumer, 'app.ts'),
    [
      "import { createServer } from 'node:http';",
      "import { nodeRateLimit, rateLimit } from 'headway/server';",
      'const limiter = rateLimit({ policy: { rate: 10 } });',
      'createServer(nodeRateLimit(limiter, (_req, res) => res.end()));',
      '',
    ].join('\n'),
  );
}, 120_000);

afterAll(() => {
  if (consumer) rmSync(consumer, { recursive: true, force: true });
});

describe('headway/server type-checks without its optional peers', () => {
  it('a consumer with neither express nor hono installed gets no type error from headway/server', () => {
    const program = ts.createProgram([join(consumer, 'app.ts')], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      types: ['node'],
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          `${d.file ? d.file.fileName.slice(consumer.length) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
    expect(errors).toEqual([]);
  }, 60_000);
});

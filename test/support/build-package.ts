/**
 * The published build, for tests of what users load rather than `src/`: the entries of
 * package.json's `tsup` config, bundled by tsup with that config into a fresh temporary folder
 * whose `node_modules` are the repository's (so the build's bare imports resolve as they do for
 * an installed package). No types, no source maps.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  tsup: { entry: Record<string, string> } & Record<string, unknown>;
};

/** A built package: `dist` holds `<entry>.js` (ESM) or `<entry>.cjs` (CommonJS). */
export interface BuiltPackage {
  /** The temporary folder (its `dist`, its `node_modules` link). */
  out: string;
  dist: string;
  remove(): void;
}

/**
 * Builds `entries` (names of package.json's `tsup.entry`, e.g. `index`, `redis/index`; default:
 * every entry but the CLI) in `format`. An ESM build's folder is marked `"type": "module"`.
 */
export async function buildPackage(
  format: 'esm' | 'cjs',
  entries?: readonly string[],
): Promise<BuiltPackage> {
  const out = mkdtempSync(join(tmpdir(), `headway-built-${format}-`));
  symlinkSync(join(root, 'node_modules'), join(out, 'node_modules'));
  if (format === 'esm') writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'module' }));
  const entry = Object.fromEntries(
    Object.entries(pkg.tsup.entry)
      .filter(([name]) => (entries ? entries.includes(name) : name !== 'cli/main'))
      .map(([name, file]) => [name, join(root, file)]),
  );
  const dist = join(out, 'dist');
  await build({
    ...pkg.tsup,
    entry,
    format: [format],
    dts: false,
    sourcemap: false,
    clean: false,
    silent: true,
    config: false,
    outDir: dist,
  });
  return { out, dist, remove: () => rmSync(out, { recursive: true, force: true }) };
}

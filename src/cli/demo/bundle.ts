import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The repository root: the nearest folder up from the working directory (where `npm start` runs)
 * that holds the demo's page sources, which the published package does not ship.
 */
export function repositoryRoot(): string {
  let dir = process.cwd();
  while (!existsSync(join(dir, 'src/cli/demo/page/charts.ts'))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(
        'the demo builds its pages from src/cli/demo/page: run it from a clone of the repository (`npm ci && npm start`)',
      );
    dir = parent;
  }
  return dir;
}

/** Bundles one browser entry (a path from the repository root) into a single IIFE script. */
async function bundle(entry: string, globalName?: string): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [join(repositoryRoot(), entry)],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    ...(globalName ? { globalName } : {}),
  });
  return result.outputFiles[0]!.text;
}

/**
 * Headway's client entry (`src/index.ts`) for browsers, as the global `Headway`. Built for the
 * browser platform, so a Node-only import in the client would fail this build.
 */
export const clientBundle = () => bundle('src/index.ts', 'Headway');

/** The report's script (uPlot and the charts, bundled). */
export const reportBundle = () => bundle('src/cli/demo/page/report.ts');

/** The live page's script. */
export const liveBundle = () => bundle('src/cli/demo/page/live.ts');

/** uPlot's stylesheet. */
export function uplotCss(): string {
  const require = createRequire(join(repositoryRoot(), 'package.json'));
  return readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');
}

import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Two projects. `unit` runs files in parallel and never waits on real time for an outcome nor
 * asserts a duration: time is passed in (the manual clock), or it is Redis's own, read but never
 * slept on. `contract` runs what needs real time, one file at a time: the client against the real
 * server over loopback, Redis killed and restarted, child processes that run for seconds. Its
 * time bounds are loose sanity bounds (speed targets are the benchmark's). `npm test` runs
 * `unit`, then `contract`. `globalSetup` provides one Redis for the whole run.
 *
 * `timed` files live next to the code they exercise but run on real time, so they run with `contract`.
 */
const timed = [
  'test/stores/redis.test.ts',
  'test/redis/concurrency.test.ts',
  'test/redis/eval-script.test.ts',
  'test/redis/fault.test.ts',
  'test/redis/fault-integrated.test.ts',
  'test/redis/cluster.test.ts',
  'test/redis/slow-oom.test.ts',
  'test/redis/batch.test.ts',
  'test/cli/serve.test.ts',
  'test/cli/demo.test.ts',
  'test/client/no-leak.test.ts',
];

/**
 * The package's own name (`headway`, `headway/server`, …), which bench modules some tests share
 * import it by, read from the source here: tests test `src/`, the bench measures the build.
 */
const src = fileURLToPath(new URL('./src/', import.meta.url));
const resolve = {
  alias: [
    { find: /^headway$/, replacement: `${src}index.ts` },
    { find: /^headway\/(.+)$/, replacement: `${src}$1/index.ts` },
  ],
};

/**
 * Workers for `unit`: vitest's default is one less than the cores, which on a 2-core machine (CI's)
 * is one: the 294 files ran one after another, 127 s on a quiet machine against 73 s with two.
 */
const unitWorkers = Math.max(2, availableParallelism() - 1);

/** Fixed fast-check seed (`FC_SEED` to change it). */
const setupFiles = ['test/support/fast-check.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      {
        resolve,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/contract/**', ...timed],
          maxWorkers: unitWorkers,
          setupFiles,
        },
      },
      {
        resolve,
        test: {
          name: 'contract',
          include: ['test/contract/**/*.test.ts', ...timed],
          fileParallelism: false,
          // Real time on a loaded or slow host: a test that owes a 1 s `Retry-After` or two must not
          // hit vitest's 5 s default. Still a bound, so a hang fails.
          testTimeout: 30_000,
          setupFiles,
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (everything that passes time in, plus Redis and in-process server tests)
 * runs files in parallel; `contract` runs the client against the real server over loopback with
 * real time, one file at a time, so timing targets are not measured on a machine busy with
 * other tests. `npm test` runs `unit`, then `contract`.
 *
 * `timed` files live next to the code they exercise but measure real time, so they run with `contract`.
 */
const timed = ['test/redis/fault-integrated.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      { test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/contract/**', ...timed] } },
      {
        test: { name: 'contract', include: ['test/contract/**/*.test.ts', ...timed], fileParallelism: false },
      },
    ],
  },
});

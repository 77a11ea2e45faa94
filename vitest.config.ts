import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (everything that passes time in, plus Redis and in-process server tests)
 * runs files in parallel; `contract` runs the client against the real server over loopback with
 * real time, one file at a time, so timing targets are not measured on a machine busy with
 * other tests. `npm test` runs `unit`, then `contract`.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/contract/**'] } },
      { test: { name: 'contract', include: ['test/contract/**/*.test.ts'], fileParallelism: false } },
    ],
  },
});

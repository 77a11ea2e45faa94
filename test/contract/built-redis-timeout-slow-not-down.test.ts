/**
 * The published build, not `src/`: each entry of package.json's `tsup` config is bundled on its
 * own (`splitting: false`), so `headway` and `headway/redis` each carry a copy of `errors.ts`.
 * README, "A slow store is not a dead one": one slow answer only sends that one call to the
 * fallback; the store is left alone only when it is slow twice in a row. The slow answer here is
 * the `StoreTimeoutError` that `redisStore` (from `headway/redis`) rejects with once
 * `commandTimeoutMs` (default 100 ms) passes. The package is built by tsup into a temporary
 * folder (ESM only, no types); the waits run on the built `ManualClock`.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltPackage, buildPackage } from '../support/build-package.js';

let built: BuiltPackage | undefined;

/** Imports one built entry (`index`, `redis/index`, …) as a user's `import 'headway/…'` would load it. */
// biome-ignore lint/suspicious/noExplicitAny: the build has no types here
const entry = (name: string): Promise<any> =>
  import(pathToFileURL(join((built as BuiltPackage).dist, `${name}.js`)).href);

beforeAll(async () => {
  built = await buildPackage('esm');
}, 120_000);

afterAll(() => built?.remove());

describe('the built package: a slow answer of the Redis store', () => {
  it('one StoreTimeoutError from `headway/redis` sends one call to the fallback; the store is not marked down', async () => {
    const { createFetch, memoryStore } = await entry('index');
    const { StoreTimeoutError } = await entry('redis/index');
    const { ManualClock } = await entry('testing/index');
    const clock = new ManualClock();
    const inner = memoryStore({ clock });
    // The next store call answers as `redisStore` does when Redis is slow once.
    let slowNext = true;
    const guard = <T>(op: () => Promise<T>): Promise<T> => {
      if (!slowNext) return op();
      slowNext = false;
      return Promise.reject(new StoreTimeoutError('http://127.0.0.1:9', 100, 'commandTimeoutMs'));
    };
    const store = {
      take: (key: string, limit: unknown, cost: number) => guard(() => inner.take(key, limit, cost)),
      reserve: (key: string, limit: unknown, cost: number) => guard(() => inner.reserve(key, limit, cost)),
      holdGate: (key: string, ms: number) => guard(() => inner.holdGate(key, ms)),
      gateWait: (key: string) => guard(() => inner.gateWait(key)),
    };
    const fetch = createFetch({
      fetch: async () => new Response('ok'),
      clock,
      store,
      rate: 40,
      burst: 8,
      expectedWorkers: 4,
    });
    const call = fetch('http://127.0.0.1:9/a');
    for (let i = 0; i < 20; i++) await clock.advance(5);
    expect((await call).status).toBe(200);
    expect(fetch.stats()[0].shared).toEqual({ degraded: false, failures: 1 });
  });
});

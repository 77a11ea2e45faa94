import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';
import { describeStoreContract, manualTime } from './store-contract.js';

// The same behaviour the Redis store is held to, on the memory store with a manual clock per test.
describeStoreContract('memory', () => {
  const clock = new ManualClock();
  return { store: memoryStore({ clock }), time: manualTime(clock) };
});

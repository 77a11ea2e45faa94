import { memoryStore } from '../../src/stores/memory.js';
import { describeStoreContract } from './store-contract.js';

// The same behaviour the Redis store is held to, on the memory store with the system clock.
describeStoreContract('memory', () => memoryStore());

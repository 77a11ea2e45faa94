import { memoryStore } from '../src/stores/memory.js';

const store = memoryStore({ maxKeys: 300_000 });
const limit = { algorithm: 'token-bucket' as const, limit: Number(process.argv[2] ?? 1e9), windowMs: 60_000 };
const keys = Array.from({ length: 100_000 }, (_, i) => `client-${i}`);
for (const k of keys) store.takeNow!(k, limit, 1);
const t = performance.now();
const n = 3_000_000;
for (let i = 0; i < n; i++) store.takeNow!(keys[i % keys.length]!, limit, 1);
console.log(Math.round((n * 1000) / (performance.now() - t) / 1000), 'k/s takeNow');
const t2 = performance.now();
for (let i = 0; i < n; i++) await store.take(keys[i % keys.length]!, limit, 1);
console.log(Math.round((n * 1000) / (performance.now() - t2) / 1000), 'k/s await take');

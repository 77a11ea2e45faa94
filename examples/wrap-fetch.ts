/**
 * Wrap fetch in an app: one line, every option optional. Headway learns each origin's limit from
 * its headers. Run: `node --import tsx examples/wrap-fetch.ts`
 * (In your code, import from 'headway' and 'headway/server'.)
 */
import { createFetch } from '../src/index.js';
import { startServer } from '../src/server/index.js';

// A stand-in for the API you call: 20/s with a burst of 5, IETF RateLimit headers.
const api = await startServer({ rate: 20, burst: 5 });

const fetch = createFetch();
const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => fetch(`${api.url}/items/${i}`)));
console.log('statuses:', [...new Set(responses.map((r) => r.status))].join(', '));
const [stats] = fetch.stats();
console.log('learned:', stats?.learned, '429s seen:', stats?.rateLimited);
console.log('server refused:', api.metrics().refused);
await api.close();

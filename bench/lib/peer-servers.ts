/**
 * Limiters from other projects, as real HTTP servers on loopback (S6), each set up as its README
 * shows and answering `GET /items` with a small JSON body:
 * - express-rate-limit 8 on express 5: `standardHeaders: 'draft-8'` (`RateLimit-Policy` +
 *   `RateLimit`) and `legacyHeaders: true` (`X-RateLimit-*`, reset as epoch seconds), `Retry-After`
 *   on 429. Its MemoryStore is a fixed window per client that starts at the client's first hit.
 * - @fastify/rate-limit on fastify 5: `x-ratelimit-limit/remaining/reset` (reset = whole seconds
 *   left) and `retry-after` on 429. Its LocalStore is a fixed window per client that starts at the
 *   client's first hit; refused hits are counted too but do not move the window.
 */
import { createServer } from 'node:http';
import rateLimitPlugin from '@fastify/rate-limit';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import Fastify from 'fastify';
import type { BenchServer } from './http-run.js';
import { listenCounted } from './loopback.js';

/** A window limit: `limit` requests per `windowMs`. */
export interface WindowLimit {
  limit: number;
  windowMs: number;
}

/** express-rate-limit 8 in front of an express 5 app. */
export function startExpressRateLimit({ limit, windowMs }: WindowLimit): Promise<BenchServer> {
  const app = express();
  app.use(rateLimit({ windowMs, limit, standardHeaders: 'draft-8', legacyHeaders: true }));
  app.get('/items', (_req, res) => {
    res.json({ ok: true });
  });
  return listenCounted(createServer(app));
}

/** @fastify/rate-limit registered globally on a fastify 5 app. */
export async function startFastifyRateLimit({ limit, windowMs }: WindowLimit): Promise<BenchServer> {
  const app = Fastify({ logger: false });
  await app.register(rateLimitPlugin, { max: limit, timeWindow: windowMs });
  app.get('/items', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return listenCounted(app.server);
}

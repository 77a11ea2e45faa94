/**
 * S9 server: run as `node --import tsx bench/s9-http-server.ts <case>`; listens on a free loopback
 * port, prints `{ port }` as JSON, and answers `{"ok":true}` until killed. Each case is a framework
 * bare, or the same app behind its Headway adapter (default key: the client IP, IETF headers), or
 * behind express-rate-limit (its README setup) for scale, or behind one empty middleware (`next()`
 * only): the framework's own floor for any middleware, or (Hono) with `withRateLimit` around the
 * app's `fetch` instead of the middleware; or (`+copy`) the bare app again, in a process of its own,
 * which measures what the schedule itself reads between two identical servers. The limit is never reached, so the cost
 * measured is the limiter's per-request work, not refusals. Each line on stdin is answered with
 * `{ cpuUs, requests }` (this process's user + system CPU and requests seen), so the runner can
 * compute CPU per request for one measurement. `s9Listener` gives a case's request listener
 * alone (bench/s9-stub.ts runs it over in-memory sockets).
 */
import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import { rateLimit as expressRateLimitPeer } from 'express-rate-limit';
import { expressRateLimit, honoRateLimit, nodeRateLimit, rateLimit, withRateLimit } from 'headway/server';
import { Hono } from 'hono';
import { setOnExpress } from '../src/server/adapters/express.js';
import { nodeServerEnv, setOnOutgoing } from '../src/server/adapters/node-server-env.js';
import type { HeaderList } from '../src/server/headers/types.js';
import { putHeaders } from '../src/server/node-head.js';

export const s9Cases = [
  'node',
  'node+headway',
  'node+floor',
  'node+copy',
  'fetch',
  'fetch+headway',
  'fetch+floor',
  'fetch+copy',
  'hono',
  'hono+headway',
  'hono+empty',
  'hono+floor',
  'hono+fetch-wrap',
  'hono+copy',
  'express',
  'express+headway',
  'express+erl',
  'express+empty',
  'express+floor',
  'express+copy',
] as const;
export type S9Case = (typeof s9Cases)[number];

const body = '{"ok":true}';
const limiterOf = () => rateLimit({ policy: { rate: 1e9, burst: 1e9 } });

/**
 * The floor of any limiter: only the work none can skip. It reads the client address and the API
 * key headers, and returns the same header fields the limiter sends here (IETF `RateLimit-Policy`,
 * a `RateLimit` formatted per request, `Date` formatted once a second), which the floor cases put
 * on the response the cheapest way known (with the response head, as the adapters do; on Express
 * by `setHeader`, as its adapter does, see `setOnExpress`).
 */
function floorHeaders(): (ip: string | undefined, apiKey: string | undefined) => HeaderList {
  let remaining = 1e9;
  let second = 0;
  let date = '';
  return (ip, apiKey) => {
    if (ip === undefined && apiKey === undefined) throw new Error('S9 floor: no client to key by');
    const now = Date.now();
    if (Math.floor(now / 1000) !== second) {
      second = Math.floor(now / 1000);
      date = new Date(now).toUTCString();
    }
    return [
      ['RateLimit-Policy', '"default";q=1000000000;w=1'],
      ['RateLimit', `"default";r=${--remaining};t=1`],
      ['Date', date],
    ];
  };
}

/** The floor's reads of a node request: the socket address and an API key header. */
const floorOfNode = (floor: ReturnType<typeof floorHeaders>, req: IncomingMessage) =>
  floor(req.socket.remoteAddress, req.headers.authorization ?? req.headers['x-api-key']?.toString());

function nodeFloor(listener: RequestListener): RequestListener {
  const floor = floorHeaders();
  return (req, res) => {
    putHeaders(res, floorOfNode(floor, req));
    listener(req, res);
  };
}

function fetchFloor(handler: (request: Request) => Response): (request: Request, env?: unknown) => Response {
  const floor = floorHeaders();
  return (request, env) => {
    const node = nodeServerEnv(env)!;
    setOnOutgoing(node, floorOfNode(floor, node.incoming));
    return handler(request);
  };
}

function nodeListener(): RequestListener {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  };
}

function fetchHandler(): (request: Request) => Response {
  return () => new Response(body, { headers: { 'content-type': 'application/json' } });
}

function honoApp(limiter: 'none' | 'headway' | 'empty' | 'floor'): Hono {
  const app = new Hono();
  if (limiter === 'headway') app.use(honoRateLimit(limiterOf()));
  if (limiter === 'floor') {
    const floor = floorHeaders();
    app.use((c, next) => {
      const node = nodeServerEnv(c.env)!;
      setOnOutgoing(node, floorOfNode(floor, node.incoming));
      return next();
    });
  }
  // The floor: one middleware that does nothing but pass on.
  if (limiter === 'empty') app.use((_c, next) => next());
  app.get('/', (c) => c.json({ ok: true }));
  return app;
}

function expressApp(limiter: 'none' | 'headway' | 'erl' | 'empty' | 'floor'): express.Express {
  const app = express();
  if (limiter === 'headway') app.use(expressRateLimit(limiterOf()));
  if (limiter === 'floor') {
    const floor = floorHeaders();
    app.use((req, res, next) => {
      setOnExpress(res, floorOfNode(floor, req));
      next();
    });
  }
  if (limiter === 'erl') app.use(expressRateLimitPeer({ windowMs: 60_000, limit: 1e9 }));
  // The floor: one middleware that does nothing but pass on.
  if (limiter === 'empty') app.use((_req, _res, next) => next());
  app.get('/', (_req, res) => {
    res.json({ ok: true });
  });
  return app;
}

/** The request listener of one case (a Hono app or fetch handler under `@hono/node-server`'s). */
export function s9Listener(name: S9Case): RequestListener {
  const onHonoServer = (fetch: (request: Request) => Response | Promise<Response>) =>
    getRequestListener(fetch) as RequestListener;
  switch (name) {
    case 'node':
    case 'node+copy':
      return nodeListener();
    case 'node+headway':
      return nodeRateLimit(limiterOf(), nodeListener());
    case 'node+floor':
      return nodeFloor(nodeListener());
    case 'fetch':
    case 'fetch+copy':
      return onHonoServer(fetchHandler());
    case 'fetch+floor':
      return onHonoServer(fetchFloor(fetchHandler()));
    case 'fetch+headway':
      return onHonoServer(withRateLimit(limiterOf(), fetchHandler()));
    case 'hono':
    case 'hono+copy':
      return onHonoServer(honoApp('none').fetch);
    case 'hono+headway':
      return onHonoServer(honoApp('headway').fetch);
    case 'hono+empty':
      return onHonoServer(honoApp('empty').fetch);
    case 'hono+floor':
      return onHonoServer(honoApp('floor').fetch);
    case 'hono+fetch-wrap':
      return onHonoServer(withRateLimit(limiterOf(), honoApp('none').fetch));
    case 'express':
    case 'express+copy':
      return expressApp('none');
    case 'express+headway':
      return expressApp('headway');
    case 'express+erl':
      return expressApp('erl');
    case 'express+empty':
      return expressApp('empty');
    case 'express+floor':
      return expressApp('floor');
  }
}

let served = 0;

function listen(name: S9Case): Promise<number> {
  return new Promise<number>((resolve) => {
    const server = createServer(s9Listener(name));
    server.on('request', () => served++);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

if (process.argv[1]?.endsWith('s9-http-server.ts')) {
  const name = process.argv[2] as S9Case;
  if (!s9Cases.includes(name)) throw new Error(`usage: s9-http-server.ts <${s9Cases.join('|')}>`);
  const port = await listen(name);
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.stdin.setEncoding('utf8').on('data', () => {
    const { user, system } = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ cpuUs: user + system, requests: served })}\n`);
  });
  // Exit cleanly when stopped, so `--cpu-prof` profiles are written.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(0));
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { expressRateLimit } from '../../src/server/adapters/express.js';
import { fetchRateLimit, withRateLimit } from '../../src/server/adapters/fetch.js';
import { honoRateLimit } from '../../src/server/adapters/hono.js';
import { nodeRateLimit } from '../../src/server/adapters/node.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { type Answer, expectContract, fetchBridge, listen, threeCalls } from './loopback.js';

const policy = { rate: 1, burst: 2 };
const manual = () => rateLimit({ policy, clock: new ManualClock() });

/** A socket-less node request/response pair that records what was written. */
function nodePair(): { req: IncomingMessage; res: ServerResponse; answer: Promise<Answer> } {
  const headers: Record<string, string> = {};
  let done: (answer: Answer) => void = () => {};
  const answer = new Promise<Answer>((resolve) => {
    done = resolve;
  });
  const res = {
    statusCode: 200,
    headersSent: false,
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
      return res;
    },
    getHeader: (name: string): string | undefined => headers[name.toLowerCase()],
    status(code: number) {
      res.statusCode = code;
      return res;
    },
    type(value: string) {
      return res.setHeader('content-type', value);
    },
    writeHead(code: number, extra: Record<string, string> = {}) {
      res.statusCode = code;
      for (const [name, value] of Object.entries(extra)) res.setHeader(name, value);
      return res;
    },
    end(body?: string) {
      done({ status: res.statusCode, header: (n) => headers[n], body: body ?? '' });
    },
    send: (body?: string) => res.end(body),
  };
  const req = { method: 'GET', url: '/', headers: {}, socket: { remoteAddress: '192.0.2.1' } };
  return { req: req as unknown as IncomingMessage, res: res as unknown as ServerResponse, answer };
}

describe('node:http adapter', () => {
  it('in-process: headers on 200 and 429, JSON refusal', async () => {
    const handler = nodeRateLimit(manual(), (_req, res) => res.end('ok'));
    const answers: Answer[] = [];
    for (let i = 0; i < 3; i++) {
      const { req, res, answer } = nodePair();
      handler(req, res);
      answers.push(await answer);
    }
    expectContract(answers);
    expect(answers[0]!.body).toBe('ok');
  });

  it('loopback', async () => {
    const server = await listen(nodeRateLimit(manual(), (_req, res) => res.end('ok')));
    try {
      expectContract(await threeCalls(server.url));
    } finally {
      await server.close();
    }
  });
});

describe('fetch adapter', () => {
  const app = () => new Response('ok', { headers: { 'content-type': 'text/plain' } });

  it('in-process: guard returns the 429 or undefined, decorate adds headers', async () => {
    const guard = fetchRateLimit(manual());
    const answers: Answer[] = [];
    for (let i = 0; i < 3; i++) {
      const request = new Request('http://api.test/');
      const response = (await guard(request, { ip: '192.0.2.1' })) ?? guard.decorate(request, app());
      answers.push({
        status: response.status,
        header: (n) => response.headers.get(n),
        body: await response.text(),
      });
    }
    expectContract(answers);
  });

  it('decorates an immutable response by copying it', async () => {
    const handler = withRateLimit(manual(), () => Response.redirect('http://api.test/next', 302));
    const response = await handler(new Request('http://api.test/'), { ip: 'a' });
    expect(response.status).toBe(302);
    expect(response.headers.get('ratelimit')).toBe('"default";r=1;t=1');
  });

  it('answers a synchronous handler synchronously (a server’s fast path), errors as a rejection', async () => {
    const handler = withRateLimit(manual(), app);
    const answered = handler(new Request('http://api.test/'), { ip: 'a' });
    expect(answered).toBeInstanceOf(Response);
    expect((answered as Response).headers.get('ratelimit')).toBe('"default";r=1;t=1');
    const failing = withRateLimit(
      rateLimit({
        key: () => {
          throw new Error('boom');
        },
      }),
      app,
    );
    await expect(failing(new Request('http://api.test/'), { ip: 'a' })).rejects.toThrow('boom');
  });

  it('loopback', async () => {
    const handler = withRateLimit(manual(), app);
    const server = await listen(
      fetchBridge((request, req) => handler(request, { ip: req.socket.remoteAddress })),
    );
    try {
      expectContract(await threeCalls(server.url));
    } finally {
      await server.close();
    }
  });
});

describe('Express middleware', () => {
  /** Three requests through `middleware`, one after another, each answered `ok` when passed on. */
  const threeExpressCalls = async (middleware: express.RequestHandler): Promise<Answer[]> => {
    const answers: Answer[] = [];
    for (let i = 0; i < 3; i++) {
      const { req, res, answer } = nodePair();
      middleware(req as express.Request, res as express.Response, () => res.end('ok'));
      answers.push(await answer);
    }
    return answers;
  };

  it('in-process', async () => {
    const middleware = expressRateLimit(manual());
    expectContract(await threeExpressCalls(middleware));
  });

  it('answers the same once an asynchronous key has decided', async () => {
    const middleware = expressRateLimit(
      rateLimit({ policy, clock: new ManualClock(), key: () => Promise.resolve('k') }),
    );
    expectContract(await threeExpressCalls(middleware));
  });

  it('passes limiter errors to next', async () => {
    const middleware = expressRateLimit(rateLimit({ key: () => Promise.reject(new Error('boom')) }));
    const { req, res } = nodePair();
    const error = await new Promise((resolve) =>
      middleware(req as express.Request, res as express.Response, resolve),
    );
    expect(error).toMatchObject({ message: 'boom' });
  });

  it('loopback', async () => {
    const app = express();
    app.use(expressRateLimit(manual()));
    app.get('/', (_req, res) => {
      res.json({ ok: true });
    });
    const server = await listen(app.listen(0, '127.0.0.1'));
    try {
      expectContract(await threeCalls(server.url));
    } finally {
      await server.close();
    }
  });

  it("keys on req.ip when the app's trust proxy setting is on, else on the socket address", async () => {
    /** `r` of two calls from 127.0.0.1 that name two different clients in `X-Forwarded-For`. */
    const remainingOfTwoClients = async (trustProxy: boolean | string): Promise<(string | null)[]> => {
      const app = express();
      app.set('trust proxy', trustProxy);
      app.use(expressRateLimit(manual()));
      app.get('/', (_req, res) => {
        res.json({ ok: true });
      });
      const server = await listen(app.listen(0, '127.0.0.1'));
      try {
        const remaining: (string | null)[] = [];
        for (const client of ['203.0.113.1', '203.0.113.2']) {
          const response = await fetch(server.url, { headers: { 'x-forwarded-for': client } });
          await response.arrayBuffer();
          remaining.push(response.headers.get('ratelimit'));
        }
        return remaining;
      } finally {
        await server.close();
      }
    };
    // Two clients behind the proxy on 127.0.0.1: a bucket each once Express trusts the proxy.
    expect(await remainingOfTwoClients('loopback')).toEqual(['"default";r=1;t=1', '"default";r=1;t=1']);
    // Not trusted: the header is anyone's to write, so both count against the socket's address.
    expect(await remainingOfTwoClients(false)).toEqual(['"default";r=1;t=1', '"default";r=0;t=2']);
  });

  it('leaves a Date that is the one Node writes itself to Node, and sets it when Node writes none', async () => {
    const app = express();
    app.use((req, res, next) => {
      res.sendDate = req.path !== '/no-node-date';
      next();
    });
    app.use(expressRateLimit(rateLimit({ policy })));
    app.get(['/', '/no-node-date'], (_req, res) => {
      res.json({ set: res.getHeader('date') !== undefined });
    });
    const server = await listen(app.listen(0, '127.0.0.1'));
    try {
      const date = /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
      const nodeDate = await fetch(server.url);
      expect(await nodeDate.json()).toEqual({ set: false });
      expect(nodeDate.headers.get('date')).toMatch(date);
      expect(nodeDate.headers.get('ratelimit')).toBe('"default";r=1;t=1');
      const ownDate = await fetch(new URL('/no-node-date', server.url));
      expect(await ownDate.json()).toEqual({ set: true });
      expect(ownDate.headers.get('date')).toMatch(date);
    } finally {
      await server.close();
    }
  });
});

describe('Hono middleware', () => {
  const honoApp = (limiter: ReturnType<typeof rateLimit>) => {
    const app = new Hono();
    app.use(honoRateLimit(limiter));
    app.get('/', (c) => c.json({ ok: true }));
    return app;
  };

  it('hands back next()’s own promise when it decides at once (under @hono/node-server)', async () => {
    const middleware = honoRateLimit(manual());
    const headers: Record<string, string> = {};
    const outgoing = { setHeader: (name: string, value: string) => (headers[name] = value) };
    const c = { env: { incoming: { headers: {}, socket: { remoteAddress: '192.0.2.1' } }, outgoing } };
    const after = Promise.resolve();
    expect(middleware(c as never, () => after)).toBe(after);
    expect(headers.RateLimit).toBe('"default";r=1;t=1');
  });

  it('in-process (app.request)', async () => {
    const app = honoApp(manual());
    const answers: Answer[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await app.request('/');
      answers.push({
        status: response.status,
        header: (n) => response.headers.get(n),
        body: await response.text(),
      });
    }
    expectContract(answers);
  });

  it('loopback (keys by the node socket address)', async () => {
    const limiter = manual();
    const app = honoApp(limiter);
    const server = await listen(fetchBridge(async (request, req) => app.fetch(request, { incoming: req })));
    try {
      expectContract(await threeCalls(server.url));
      expect(limiter.metrics().keys[0]?.key).toBe('ip:127.0.0.1');
    } finally {
      await server.close();
    }
  });
});

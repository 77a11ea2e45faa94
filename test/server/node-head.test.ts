import type { RequestListener, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { systemDateText } from '../../src/server/date-text.js';
import type { HeaderList } from '../../src/server/headers/types.js';
import { putHeaders } from '../../src/server/node-head.js';
import { listen } from './loopback.js';

const ours: HeaderList = [
  ['RateLimit-Policy', '"default";q=10;w=1'],
  ['RateLimit', '"default";r=9;t=1'],
];

/** The answer to one GET of a server running `listener` with `ours` put on every response first. */
async function answer(listener: RequestListener): Promise<Response> {
  const server = await listen((req, res) => {
    putHeaders(res, ours);
    listener(req, res);
  });
  try {
    const response = await fetch(server.url);
    await response.text();
    return response;
  } finally {
    await server.close();
  }
}

describe('putHeaders (the limiter’s headers written with the node response head)', () => {
  it.each<[string, RequestListener, string | null]>([
    [
      'writeHead(status, object)',
      (_req, res) => res.writeHead(201, { 'content-type': 'text/plain' }).end('x'),
      null,
    ],
    [
      'writeHead(status, reason, object)',
      (_req, res) => res.writeHead(201, 'Made', { 'x-a': '1' }).end('x'),
      '1',
    ],
    [
      'writeHead(status, flat list)',
      (_req, res) => res.writeHead(201, ['x-a', '1', 'x-b', '2']).end('x'),
      '1',
    ],
    [
      'writeHead(status) after setHeader',
      (_req, res) => res.setHeader('x-a', '1').writeHead(201).end('x'),
      '1',
    ],
    [
      'end() alone (implicit head)',
      (_req, res) => {
        res.statusCode = 201;
        res.end('x');
      },
      null,
    ],
  ])('sends them with %s, beside the handler’s own', async (_shape, listener, xA) => {
    const response = await answer(listener);
    expect(response.status).toBe(201);
    expect(response.headers.get('ratelimit-policy')).toBe('"default";q=10;w=1');
    expect(response.headers.get('ratelimit')).toBe('"default";r=9;t=1');
    expect(response.headers.get('x-a')).toBe(xA);
  });

  it('keeps the status text the handler gave', async () => {
    const response = await answer((_req, res) => res.writeHead(201, 'Made', { 'x-a': '1' }).end());
    expect(response.statusText).toBe('Made');
    expect(response.headers.get('x-a')).toBe('1');
  });

  it('lets a header of the same name the handler sets win, once (setHeader or writeHead, any case)', async () => {
    const bySetHeader = await answer((_req, res) => res.setHeader('ratelimit', 'mine').end());
    expect(bySetHeader.headers.get('ratelimit')).toBe('mine');
    const byObject = await answer((_req, res) => res.writeHead(200, { RATELIMIT: 'mine' }).end());
    expect(byObject.headers.get('ratelimit')).toBe('mine');
    const byList = await answer((_req, res) => res.writeHead(200, ['RateLimit', 'mine']).end());
    expect(byList.headers.get('ratelimit')).toBe('mine');
    for (const response of [bySetHeader, byObject, byList])
      expect(response.headers.get('ratelimit-policy')).toBe('"default";q=10;w=1');
  });

  it('joins the IETF lists of two stacked limiters: each policy is named, one item each', async () => {
    const response = await answer((_req, res) => {
      putHeaders(res, [['RateLimit', '"inner";r=1;t=1']]);
      res.end();
    });
    expect(response.headers.get('ratelimit')).toBe('"inner";r=1;t=1, "default";r=9;t=1');
    expect(response.headers.get('ratelimit-policy')).toBe('"default";q=10;w=1');
  });

  it('keeps a stacked limiter’s own item once when the names repeat, and leaves other forms as set', async () => {
    const repeated = await answer((_req, res) => {
      putHeaders(res, [['RateLimit', '"default";r=1;t=1']]);
      res.end();
    });
    expect(repeated.headers.get('ratelimit')).toBe('"default";r=9;t=1');
    // draft-7's single window does not join: the handler's field wins, as any other field of its.
    const draft7 = await answer((_req, res) => {
      putHeaders(res, [['RateLimit', 'limit=5, remaining=4, reset=1']]);
      res.end();
    });
    expect(draft7.headers.get('ratelimit')).toBe('limit=5, remaining=4, reset=1');
  });

  it('sends its own Date unless it is the one Node writes itself (sendDate, now)', async () => {
    const then = 'Thu, 01 Jan 1970 00:00:00 GMT';
    const withDate = (date: string, sendDate: boolean): RequestListener =>
      function listener(_req, res) {
        res.sendDate = sendDate;
        putHeaders(res, [...ours, ['Date', date]]);
        res.end();
      };
    const server = await listen((req, res) => {
      const { pathname } = new URL(req.url ?? '/', 'http://x');
      if (pathname === '/then') withDate(then, true)(req, res);
      else withDate(systemDateText(), false)(req, res);
    });
    try {
      const atThen = await fetch(new URL('/then', server.url));
      expect(atThen.headers.get('date')).toBe(then);
      expect(atThen.headers.get('ratelimit')).toBe('"default";r=9;t=1');
      // With sendDate off Node writes none, so the limiter's own is sent.
      const noNodeDate = await fetch(new URL('/now', server.url));
      expect(noNodeDate.headers.get('date')).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    } finally {
      await server.close();
    }
  });

  it('sets them at once (visible to getHeader) on a response whose writeHead is not Node’s own', async () => {
    let seen: unknown;
    const server = await listen((req, res) => {
      const original = res.writeHead;
      res.writeHead = function wrapped(this: ServerResponse, ...args: unknown[]) {
        return (original as (...a: unknown[]) => ServerResponse).apply(this, args);
      } as ServerResponse['writeHead'];
      putHeaders(res, ours);
      seen = res.getHeader('ratelimit');
      res.end();
      void req;
    });
    try {
      const response = await fetch(server.url);
      expect(response.headers.get('ratelimit')).toBe('"default";r=9;t=1');
      expect(seen).toBe('"default";r=9;t=1');
    } finally {
      await server.close();
    }
  });
});

import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';

/** Listens on 127.0.0.1, port 0; returns the URL and a closer. */
export async function listen(
  listener: RequestListener | Server,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = typeof listener === 'function' ? createServer(listener) : listener;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Bridges node's request/response to a fetch handler (GET-only, enough for these tests). */
export function fetchBridge(
  handler: (request: Request, req: IncomingMessage) => Response | Promise<Response>,
): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(name, value);
    const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers });
    void Promise.resolve(handler(request, req)).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  };
}

/** The headers and body of a response, whatever produced it. */
export interface Answer {
  status: number;
  header(name: string): string | null | undefined;
  body: string;
}

/** Checks the server contract on three calls against `{ rate: 1, burst: 2 }`: 200, 200, 429. */
export function expectContract(answers: Answer[]): void {
  expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
  answers.forEach((answer, i) => {
    expect(answer.header('ratelimit-policy')).toBe('"default";q=2;w=2');
    expect(answer.header('ratelimit')).toBe(`"default";r=${Math.max(0, 1 - i)};t=${i === 0 ? 1 : 2}`);
    expect(answer.header('date')).toMatch(/GMT$/);
  });
  expect(answers[2]!.header('retry-after')).toBe('1');
  expect(answers[2]!.header('content-type')).toMatch(/^application\/json/);
  expect(JSON.parse(answers[2]!.body)).toEqual({
    error: 'rate_limited',
    retryAfterSeconds: 1,
    policy: 'default',
  });
}

/** Three GETs over real loopback HTTP. */
export async function threeCalls(url: string): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < 3; i++) {
    const response = await fetch(`${url}/`);
    answers.push({
      status: response.status,
      header: (n) => response.headers.get(n),
      body: await response.text(),
    });
  }
  return answers;
}

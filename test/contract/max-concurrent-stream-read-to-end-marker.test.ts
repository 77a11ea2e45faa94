/**
 * README: "an answer streamed as Server-Sent Events ... the server is still working on it, so it
 * counts until its body ends, fails or is cancelled, on every face".
 *
 * A caller reads an LLM stream event by event and stops at the stream's last event (`data:
 * [DONE]`), as hand-written SSE loops do (`if (data === '[DONE]') return`): every byte the server
 * sent was read, and the server has ended the body. With `createFetch` the caller's body is a new
 * stream that learns of the end only when it is read once more, so the place stays held (until
 * the collector finds the answer, and for good while the caller keeps its reader): the key's next
 * call waits for a stream that no longer exists. The transport has the end (undici's fetch reads
 * it into its own buffer), but the new stream asks for nothing ahead of its reader. The
 * interceptor frees the place when undici reports the end (so does `installGlobal` with the
 * built-in `fetch`, read the same way), which the last test pins.
 *
 * Found on 2026-12-06 (session 26, a review of 86b73dc, which made event streams hold their
 * place). Fixed the same day: the caller's body reads one chunk ahead, so the transport learns of its end.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/index.js';
import { headwayInterceptor } from '../../src/undici/index.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An OpenAI-shaped stream: two events, then `data: [DONE]` and the end. `ended` resolves once the server ended one. */
async function sseServer() {
  let endedOne: () => void = () => {};
  const ended = () => new Promise<void>((resolve) => (endedOne = resolve));
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('data: {"delta":"hel"}\n\n');
    res.on('finish', () => endedOne());
    setTimeout(() => res.end('data: {"delta":"lo"}\n\ndata: [DONE]\n\n'), 20);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, ended };
}

/** 'answered' once `call` settles, or 'still waiting' after `ms` (a hang, not a duration: a local answer takes a few ms). */
const settles = (call: Promise<unknown>, ms = 3000) =>
  Promise.race([call.then(() => 'answered' as const), sleep(ms).then(() => 'still waiting' as const)]);

/** Reads `reader` until the text read holds `[DONE]`, and stops there (no further read, no cancel). */
async function readToDone(reader: {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
}): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for (let i = 0; i < 100 && !text.includes('[DONE]'); i++) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

describe('maxConcurrent: a stream read to its last event', () => {
  it('createFetch: the server ended the body and every event was read: its place is free', async () => {
    const { url, ended } = await sseServer();
    const fetch = createFetch({ maxConcurrent: 1 });
    const streamEnded = ended();
    const reader = (await fetch(`${url}/a`)).body!.getReader();
    expect(await readToDone(reader)).toContain('data: [DONE]');
    await streamEnded;

    const next = await settles(fetch(`${url}/b`).then((response) => response.text()));
    expect(next).toBe('answered');
    reader.releaseLock(); // kept until here, as a caller that still holds it
  });

  it('headwayInterceptor: the server ended the body and every event was read: its place is free', async () => {
    const { url, ended } = await sseServer();
    const agent = new Agent();
    cleanups.push(() => agent.destroy());
    const dispatcher = agent.compose(headwayInterceptor({ maxConcurrent: 1 }));
    const streamEnded = ended();
    const { body } = await request(`${url}/a`, { dispatcher });
    const iterator = body[Symbol.asyncIterator]();
    const reader = {
      read: async () => {
        const { done, value } = await iterator.next();
        return { done: done === true, value: value as Uint8Array | undefined };
      },
    };
    expect(await readToDone(reader)).toContain('data: [DONE]');
    await streamEnded;

    expect(await settles(request(`${url}/b`, { dispatcher }).then(({ body }) => body.text()))).toBe(
      'answered',
    );
  });
});

/**
 * README, Batch jobs: each result's "`attempts` [is] the attempts sent", and a malformed line "is
 * reported on stderr with its line number … recorded as an error result"; `src/cli/batch-input.ts`:
 * "What `fetch` refuses before sending … is a malformed line, never a request recorded as failed."
 * So a GET with a `body` (fetch: "Request with GET/HEAD method cannot have body") and a URL on a
 * port fetch blocks (6000, "bad port") are malformed lines, `attempts: 0`. (They were recorded as
 * sent and failed: `HEADWAY_BATCH_FETCH_FAILED`, `attempts: 1`, no stderr line.)
 */
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchResult } from '../../src/cli/batch-result.js';
import { runHeadway } from '../support/run-child.js';

let dir: string;
let http: Server;
let requests = 0;
let results: BatchResult[];
let stderr = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'headway-batch-refused-'));
  http = createServer((_request, response) => {
    requests++;
    response.end('ok');
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as { port: number };
  const input = join(dir, 'in.ndjson');
  const out = join(dir, 'out.ndjson');
  await writeFile(
    input,
    `${JSON.stringify({ url: `http://127.0.0.1:${port}/with-body`, body: { n: 1 } })}\nhttp://127.0.0.1:6000/x\n`,
  );
  ({ stderr } = await runHeadway(['batch', input, '--out', out], 25_000));
  results = (await readFile(out, 'utf8'))
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as BatchResult);
}, 30_000);
afterAll(async () => {
  http?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('headway batch, a request fetch refuses before sending', () => {
  it('a GET with a body: a malformed line (reported, attempts 0), never sent', () => {
    expect(requests).toBe(0);
    const result = results.find((r) => r.line === 1);
    expect(result?.error?.code).toBe('HEADWAY_BATCH_MALFORMED_LINE');
    expect(result?.attempts).toBe(0);
    expect(stderr).toContain('line 1: malformed');
  });

  it('a URL on a blocked port: attempts 0 (nothing was sent)', () => {
    const result = results.find((r) => r.line === 2);
    expect(result?.error).not.toBeNull();
    expect(result?.attempts).toBe(0);
  });
});

/**
 * README: the package is "ESM + CJS" (`npm run build`), and package.json's `exports` send
 * `require('headway')` and `require('headway/undici')` to `dist/*.cjs`. A CommonJS user must be
 * able to make a call, not only to load the entry. The two entries are built as CommonJS by tsup
 * (package.json's config) into a temporary folder whose `node_modules` are the repository's, and
 * each is required by a child Node process (CommonJS, no test runner in between); the child
 * prints what the call gave. Loopback only.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltPackage, buildPackage } from '../support/build-package.js';

let built: BuiltPackage | undefined;

/** Runs `code` as a CommonJS script in a child Node; `dist` is the built folder. Its stdout, trimmed. */
async function runCjs(code: string): Promise<string> {
  const { out, dist } = built as BuiltPackage;
  const script = `const dist = ${JSON.stringify(dist)};\n${code}`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], {
    cwd: out,
    timeout: 20_000,
  });
  return stdout.trim();
}

beforeAll(async () => {
  built = await buildPackage('cjs', ['index', 'undici/index']);
}, 120_000);

afterAll(() => built?.remove());

describe('the CommonJS build makes calls', () => {
  it("require('headway'): a createFetch call resolves with the transport's Response", async () => {
    const printed = await runCjs(`
      const { createFetch } = require(dist + '/index.cjs');
      const fetch = createFetch({ fetch: async () => new Response('ok') });
      fetch('http://127.0.0.1:9/a').then(
        (r) => console.log('status ' + r.status),
        (e) => console.log(e.name + ': ' + e.message),
      );
    `);
    expect(printed).toBe('status 200');
  });

  it("require('headway/undici'): under installGlobal, undici.request and the built-in fetch get their answer", async () => {
    const printed = await runCjs(`
      const { installGlobal } = require(dist + '/undici/index.cjs');
      const { request } = require('undici');
      const server = require('node:http').createServer((_req, res) => res.end('ok'));
      server.listen(0, '127.0.0.1', async () => {
        const url = 'http://127.0.0.1:' + server.address().port + '/';
        const uninstall = installGlobal();
        const lines = [];
        await request(url).then((r) => r.body.text().then(() => lines.push('request ' + r.statusCode)), (e) => lines.push('request ' + e.message));
        await fetch(url).then((r) => r.text().then(() => lines.push('fetch ' + r.status)), (e) => lines.push('fetch ' + (e.cause?.message ?? e.message)));
        uninstall();
        server.close();
        console.log(lines.join('; '));
        process.exit(0);
      });
    `);
    expect(printed).toBe('request 200; fetch 200');
  });
});

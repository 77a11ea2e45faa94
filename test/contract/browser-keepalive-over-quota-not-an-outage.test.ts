/**
 * `refusedArguments` (src/client/create-fetch.ts): a call `fetch` refuses "rather than failed to
 * send" ends "with the transport's own error, as with plain `fetch`" and the key learns nothing
 * (README: refusals fetch makes by itself "are the caller's, and close no gate"). In a page,
 * `fetch` refuses a `keepalive` request whose body is over the 64 KiB keepalive quota (Fetch
 * Standard, fetch step "inflightKeepaliveBytes"): a bare `TypeError: Failed to fetch`, nothing
 * sent. The `Request` constructor accepts the same arguments, so the refusal check passes it and
 * the browser bundle takes it for a network failure: a PUT against the reference server on another
 * origin is "retried" twice (nothing ever leaves) and the origin's gate closes for an outage,
 * holding every other call of the page to that API.
 *
 * Fixed on 2026-12-06 (session 25): a bare `TypeError` for a `keepalive` call whose body is over
 * the 64 KiB quota is fetch's refusal (`overKeepaliveQuota` in src/client/fetch-refusals.ts). What
 * the text above describes is how it behaved before.
 */
import { describe, expect, it } from 'vitest';
import { bundlePageForTests } from '../support/browser-page.js';

const { chromium, page, api } = bundlePageForTests({ rate: 100, burst: 20 });

describe('the browser bundle, a keepalive body over the browser’s quota', () => {
  it.skipIf(!chromium)('rejects as fetch does: no retry, no outage for the API', async () => {
    const out = await page().evaluate(async (url) => {
      const init = { method: 'PUT', body: 'x'.repeat(70_000), keepalive: true };
      const failure = (p: Promise<Response>) =>
        p.then(
          (r) => `status ${r.status}`,
          (e: Error) => e.name,
        );
      // biome-ignore lint/suspicious/noExplicitAny: the bundle's global, in the page
      const headway = (globalThis as any).Headway;
      // A fixed jitter: the backoff and the gate's spread do not depend on luck.
      const paced = headway.createFetch({ random: () => 0.5 });
      const retries: string[] = [];
      paced.onRetry((e: { reason: string }) => retries.push(e.reason));
      const plain = await failure(fetch(url, init));
      const result = await failure(paced(url, init));
      const stats = paced.stats()[0];
      return { plain, result, retries, sent: stats.sent, gate: stats.gate.reason };
    }, `${api().url}/items`);
    expect(out.plain).toBe('TypeError');
    expect(out.result).toBe('TypeError');
    expect({ retries: out.retries, sent: out.sent, gate: out.gate }).toEqual({
      retries: [],
      sent: 0,
      gate: null,
    });
  });
});

/**
 * README (Example): "A URL `fetch` refuses by itself (a blocked port such as 6000, a scheme other
 * than `http(s):`) is not retried … those are the caller's, and close no gate." In Node that holds
 * (test/client/bad-port-refused.test.ts). In a page, Chromium refuses port 6000 (net::ERR_UNSAFE_PORT)
 * with a bare `TypeError: Failed to fetch`, no `cause`: `fetchRefusedUrl` (src/client/fetch-refusals.ts)
 * only takes a blocked port for a refusal when `cause.message === 'bad port'` (undici's wording), so
 * the browser bundle reads the refusal as a network failure: the GET is retried twice with backoff,
 * counted as 3 attempts sent, and the key's gate closes for an outage.
 *
 * Fixed on 2026-12-06 (session 25): a bare `TypeError` (no cause: a browser's) for a URL on a
 * blocked port is fetch's refusal, as undici's "bad port" is (`fetchRefusedUrl`). What the text
 * above describes is how it behaved before.
 */
import { describe, expect, it } from 'vitest';
import { bundlePageForTests } from '../support/browser-page.js';

const { chromium, page } = bundlePageForTests();

describe('the browser bundle, a URL on a port the browser blocks', () => {
  it.skipIf(!chromium)('rejects as fetch does, unretried, no attempt counted, no outage', async () => {
    const result = await page().evaluate(async () => {
      // biome-ignore lint/suspicious/noExplicitAny: the bundle's global, in the page
      const headway = (globalThis as any).Headway;
      // A fixed jitter: the backoff and the gate's spread do not depend on luck.
      const paced = headway.createFetch({ random: () => 0.5 });
      const retries: string[] = [];
      paced.onRetry((e: { reason: string }) => retries.push(e.reason));
      const error = await paced('http://127.0.0.1:6000/items').then(
        () => 'resolved',
        (e: Error) => e.name,
      );
      const stats = paced.stats()[0];
      return { error, retries, sent: stats.sent, gate: stats.gate.reason };
    });
    expect(result.error).toBe('TypeError');
    expect(result).toEqual({ error: 'TypeError', retries: [], sent: 0, gate: null });
  });
});

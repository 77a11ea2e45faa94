/**
 * A GitHub-shaped API on 127.0.0.1, from GitHub's documentation of its REST rate limits
 * ("Rate limits for the REST API"): what the contract test and bench S8 point `@octokit/rest` at.
 *
 * - **Primary limit**: `limit` requests per `windowMs`, the window starting with the first request.
 *   Every answer carries `x-ratelimit-limit`, `x-ratelimit-remaining`, `x-ratelimit-used`,
 *   `x-ratelimit-reset` (UTC epoch seconds, rounded up) and `x-ratelimit-resource: core`. Past the
 *   limit: `403` (or `429`), `x-ratelimit-remaining: 0`, no `retry-after` ("do not retry until
 *   `x-ratelimit-reset`"), and the message "API rate limit exceeded …".
 * - **Secondary limits**: more than `maxInFlight` requests in flight at once, or more than
 *   `perSecond` admitted in the last second, answer `403` (or `429`) with `retry-after` (seconds)
 *   and the message "You have exceeded a secondary rate limit …", the counters as they stand
 *   (`remaining` above 0). A refused request counts against no limit.
 * - An admitted `GET /repos/{owner}/{repo}/issues/{n}` answers after `latencyMs` with the issue.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '../../src/core/clock.js';
import type { BenchServer } from './http-run.js';

/** The limits of the server. */
export interface GitHubLimits {
  /** Primary limit: requests per window. */
  limit: number;
  windowMs: number;
  /** Secondary limit: requests in flight at once. */
  maxInFlight: number;
  /** Secondary limit: requests admitted per second. */
  perSecond: number;
  /** `retry-after` of a secondary refusal, in seconds. */
  retryAfterSeconds: number;
  /** How long an admitted request takes. */
  latencyMs: number;
  /** The status of a refusal (GitHub documents both). @default 403 */
  refusalStatus?: 403 | 429;
}

/** What the server answered, by kind. */
export interface GitHubCounts {
  ok: number;
  /** Refused by the primary window (`remaining: 0`). */
  primary: number;
  /** Refused for too many in flight. */
  concurrent: number;
  /** Refused for too many per second. */
  perSecond: number;
  /** Most requests the server had in flight at once. */
  peakInFlight: number;
}

/** A running GitHub-shaped server. */
export interface GitHubServer extends BenchServer {
  counts(): GitHubCounts;
}

/** GitHub's documented messages. */
export const PRIMARY_MESSAGE = 'API rate limit exceeded for user ID 1.';
export const SECONDARY_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.';
const DOCS = 'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api';

/** Starts the server on a free loopback port. */
export async function startGitHubServer(limits: GitHubLimits): Promise<GitHubServer> {
  const counts: GitHubCounts = { ok: 0, primary: 0, concurrent: 0, perSecond: 0, peakInFlight: 0 };
  const status = limits.refusalStatus ?? 403;
  let windowEnd = Number.NEGATIVE_INFINITY;
  let wallWindowEnd = 0;
  let used = 0;
  let inFlight = 0;
  /** Admission times of the last second, oldest first. */
  const admitted: number[] = [];
  const server = createServer((req, res) => {
    const now = systemClock.now();
    if (now >= windowEnd) {
      windowEnd = now + limits.windowMs;
      wallWindowEnd = systemClock.wallNow() + limits.windowMs;
      used = 0;
    }
    while (admitted.length > 0 && admitted[0]! <= now - 1000) admitted.shift();
    const primary = used >= limits.limit;
    const secondary =
      inFlight >= limits.maxInFlight
        ? 'concurrent'
        : admitted.length >= limits.perSecond
          ? 'perSecond'
          : null;
    if (!primary && secondary === null) {
      used++;
      inFlight++;
      admitted.push(now);
      counts.peakInFlight = Math.max(counts.peakInFlight, inFlight);
    }
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'x-ratelimit-limit': String(limits.limit),
      'x-ratelimit-remaining': String(limits.limit - used),
      'x-ratelimit-used': String(used),
      'x-ratelimit-reset': String(Math.ceil(wallWindowEnd / 1000)),
      'x-ratelimit-resource': 'core',
    };
    if (primary) {
      counts.primary++;
      res
        .writeHead(status, headers)
        .end(JSON.stringify({ message: PRIMARY_MESSAGE, documentation_url: DOCS }));
      return;
    }
    if (secondary !== null) {
      counts[secondary]++;
      res.writeHead(status, { ...headers, 'retry-after': String(limits.retryAfterSeconds) }).end(
        JSON.stringify({
          message: SECONDARY_MESSAGE,
          documentation_url: `${DOCS}#about-secondary-rate-limits`,
        }),
      );
      return;
    }
    const number = Number(/\/issues\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
    setTimeout(() => {
      inFlight--;
      counts.ok++;
      res.writeHead(200, headers).end(JSON.stringify({ number, title: `Issue ${number}`, state: 'open' }));
    }, limits.latencyMs);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => ({ ...counts }),
    metrics: () => ({ allowed: counts.ok, refused: counts.primary + counts.concurrent + counts.perSecond }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * Pace GitHub's API under `@octokit/rest`, unchanged: Headway as the SDK's `fetch` paces the
 * primary window from `x-ratelimit-*`, learns the secondary "too many in flight" limit from the
 * 403s that come while many calls are in flight, and reopens gradually after a `retry-after`.
 * Run: `node --import tsx examples/octokit.ts` (against a local GitHub-shaped server).
 */
import { Octokit } from '@octokit/rest';
import { startGitHubServer } from '../bench/lib/github-server.js';
import { createFetch } from '../src/index.js';

// The "GitHub": 100 requests per 5 s, at most 8 in flight, 40 per second (secondary: 403 + retry-after).
const github = await startGitHubServer({
  limit: 100,
  windowMs: 5000,
  maxInFlight: 8,
  perSecond: 40,
  retryAfterSeconds: 1,
  latencyMs: 20,
});

const fetch = createFetch(); // nothing configured: the limits are learned from the answers
const octokit = new Octokit({ baseUrl: github.url, request: { fetch } });

const started = performance.now();
const issues = await Promise.all(
  Array.from({ length: 120 }, (_, i) =>
    octokit.rest.issues.get({ owner: 'o', repo: 'r', issue_number: i + 1 }),
  ),
);
const seconds = ((performance.now() - started) / 1000).toFixed(2);
const [stats] = fetch.stats();
console.log(`${issues.length} issues read in ${seconds} s`);
console.log(`  learned in-flight cap: ${stats?.inFlightCap}, refusals seen: ${stats?.rateLimited}`);
console.log(`  server: ${JSON.stringify(github.counts())}`);
await github.close();

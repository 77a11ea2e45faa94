/**
 * The key of a call when no `key` option says: its origin — one quota per server — except where a
 * server states one quota per kind of call. GitHub's REST API counts each resource apart
 * (`x-ratelimit-resource`: `core`, `search`, `code_search`, `graphql`): a spent search quota must
 * not hold the calls that count in `core`, so a call that counts elsewhere has a key of its own.
 */
import type { RequestDescription } from './request.js';

const GITHUB_API = 'https://api.github.com';

/**
 * The GitHub resource a call counts in, by its path (GitHub's "Rate limits for the REST API"):
 * `/search/code` in `code_search`, other searches in `search`, `/graphql` in `graphql`, the rest in
 * `core` (the rarer resources too: their answers name their own window, learned in `core`'s key).
 */
function githubResource(path: string): string {
  if (path === '/graphql') return 'graphql';
  if (path === '/search/code') return 'code_search';
  if (path.startsWith('/search/')) return 'search';
  return 'core';
}

/** `origin`, or on api.github.com `origin#resource` for a call that does not count in `core`. */
export function defaultKey(origin: string, request: RequestDescription): string {
  if (origin !== GITHUB_API) return origin;
  const resource = githubResource(request.url.pathname);
  return resource === 'core' ? origin : `${origin}#${resource}`;
}

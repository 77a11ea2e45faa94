/** The default key: the origin, and on api.github.com the resource a call counts in. */
import { describe, expect, it } from 'vitest';
import { defaultKey } from '../../src/client/default-key.js';
import { describeRequest } from '../../src/client/request.js';

const keyOf = (url: string) => defaultKey(new URL(url).origin, describeRequest(url, undefined));

describe('defaultKey', () => {
  it.each([
    ['https://api.example.com/v1/x?q=1', 'https://api.example.com'],
    ['http://127.0.0.1:8080/search/x', 'http://127.0.0.1:8080'],
    ['https://api.github.com/repos/o/r/issues', 'https://api.github.com'],
    ['https://api.github.com/search/issues?q=x', 'https://api.github.com#search'],
    ['https://api.github.com/search/code?q=x', 'https://api.github.com#code_search'],
    ['https://api.github.com/graphql', 'https://api.github.com#graphql'],
    ['https://api.github.com/searchable', 'https://api.github.com'],
  ])('%s → %s', (url, key) => {
    expect(keyOf(url)).toBe(key);
  });
});

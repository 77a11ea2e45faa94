/**
 * Docker Hub answers registry pulls with the old draft's counters, each carrying its window:
 *
 * ```http
 * ratelimit-limit: 100;w=21600
 * ratelimit-remaining: 76;w=21600
 * docker-ratelimit-source: 192.0.2.1
 * ```
 *
 * "the pull limit is 100 pulls per 21600 seconds (6 hours), and there are 76 pulls remaining"
 * (https://docs.docker.com/docker-hub/usage/pulls/). Headway reads the limit's `;w=21600` (the
 * draft-03 list, README "draft-6 (drafts 03–06)"), but the same parameter on the remaining count
 * makes the count unreadable: the 76 is dropped, and an exhausted quota (`0;w=21600`) reads as
 * "the server did not say".
 */
import { describe, expect, it } from 'vitest';
import { read } from './helpers.js';

describe('Docker Hub: ratelimit-remaining with a ;w= parameter', () => {
  it('reads the documented example as 76 of 100 per 6 h', () => {
    const signal = read(200, {
      'ratelimit-limit': '100;w=21600',
      'ratelimit-remaining': '76;w=21600',
      'docker-ratelimit-source': '192.0.2.1',
    });
    expect(signal).toMatchObject({ dialect: 'draft-6', limit: 100 });
    expect(signal.policies[0]?.windowMs).toBe(21_600_000);
    expect(signal.remaining).toBe(76);
  });

  it('reads an exhausted pull quota as 0 remaining', () => {
    const signal = read(429, { 'ratelimit-limit': '100;w=21600', 'ratelimit-remaining': '0;w=21600' });
    expect(signal.remaining).toBe(0);
  });
});

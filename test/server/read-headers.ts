/**
 * A tiny test-only reader of what the server writes, per dialect — the expectation the client's
 * `readRateLimit` parser will later be checked against.
 */
export interface ReadBack {
  limit: number | undefined;
  remaining: number | undefined;
  resetSeconds: number | undefined;
  q: number | undefined;
  w: number | undefined;
  name: string | undefined;
}

type Get = (name: string) => string | null;

const num = (text: string | null | undefined) => (text == null || text === '' ? undefined : Number(text));

function params(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split(/[;,]/)
      .map((part) => part.trim().split('='))
      .filter((kv): kv is [string, string] => kv.length === 2),
  );
}

/** Reads the headers back; `epochNowMs` turns an epoch reset into delta seconds. */
export function readBack(dialect: string, get: Get, epochNowMs = 0): ReadBack {
  const policy = get('ratelimit-policy') ?? '';
  switch (dialect) {
    case 'ietf': {
      const p = params(policy);
      const r = params(get('ratelimit') ?? '');
      return {
        limit: undefined,
        remaining: num(r.r),
        resetSeconds: num(r.t),
        q: num(p.q),
        w: num(p.w),
        name: policy.match(/^"([^"]+)"/)?.[1],
      };
    }
    case 'draft-7': {
      const r = params(get('ratelimit') ?? '');
      const [q, rest = ''] = policy.split(';');
      return {
        limit: num(r.limit),
        remaining: num(r.remaining),
        resetSeconds: num(r.reset),
        q: num(q),
        w: num(params(rest).w),
        name: undefined,
      };
    }
    case 'draft-6': {
      const [q, rest = ''] = policy.split(';');
      return {
        limit: num(get('ratelimit-limit')),
        remaining: num(get('ratelimit-remaining')),
        resetSeconds: num(get('ratelimit-reset')),
        q: num(q),
        w: num(params(rest).w),
        name: undefined,
      };
    }
    case 'x-ratelimit': {
      const reset = num(get('x-ratelimit-reset'));
      return {
        limit: num(get('x-ratelimit-limit')),
        remaining: num(get('x-ratelimit-remaining')),
        resetSeconds: reset === undefined ? undefined : reset - Math.floor(epochNowMs / 1000),
        q: undefined,
        w: undefined,
        name: undefined,
      };
    }
    default:
      return {
        limit: undefined,
        remaining: undefined,
        resetSeconds: undefined,
        q: undefined,
        w: undefined,
        name: undefined,
      };
  }
}

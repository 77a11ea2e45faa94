import { defaultBurst, windowOf } from '../core/limit.js';
import { finiteRefill, invalid, onlyFields, positive } from '../core/validate.js';
import { InvalidOptionError } from '../errors.js';
import type { AlgorithmName, StoreLimit } from '../stores/store.js';

/**
 * A quota tier. Give either `limit` per `windowMs`, or a sustained `rate` per second with a
 * `burst`; every algorithm reads both (the rule: `src/core/limit.ts`).
 */
export interface Policy {
  /** Units per window (window algorithms) or the burst (bucket algorithms). */
  limit?: number;
  /** Window length in ms (with `limit`). @default 60_000 */
  windowMs?: number;
  /** Sustained units per second (instead of `limit`/`windowMs`). */
  rate?: number;
  /** Most units at once (with `rate`). @default max(1, rate) */
  burst?: number;
  /** Policy name, sent in the IETF headers and in the 429 body. @default 'default' */
  name?: string;
  /** Refuse (503) instead of admitting when the store fails, e.g. for login or password reset. @default false */
  failClosed?: boolean;
}

/** Every field of a {@link Policy}: another is a misspelling, refused rather than ignored. */
const POLICY_FIELDS = {
  limit: true,
  windowMs: true,
  rate: true,
  burst: true,
  name: true,
  failClosed: true,
} satisfies Record<keyof Policy, true>;

/** A validated policy, mapped onto the store's limit. */
export interface ResolvedPolicy {
  name: string;
  failClosed: boolean;
  limit: StoreLimit;
}

function withHint<T>(hint: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof InvalidOptionError)
      throw new InvalidOptionError(error.option, `${error.message}. ${hint}`);
    throw error;
  }
}

/**
 * Validates `policy` and maps it onto a {@link StoreLimit}: `{ rate: 200, burst: 20 }` becomes
 * `{ limit: 20, windowMs: 100 }`. Throws `HEADWAY_INVALID_OPTION` errors that say how to fix it.
 */
export function resolvePolicy(policy: Policy, algorithm: AlgorithmName, where = 'policy'): ResolvedPolicy {
  if (typeof policy !== 'object' || policy === null) invalid(where, 'a policy object', policy);
  onlyFields(policy, POLICY_FIELDS, `${where}.`);
  const name = policy.name ?? 'default';
  if (typeof name !== 'string' || !/^[\w.-]+$/.test(name))
    invalid(`${where}.name`, 'a token ([A-Za-z0-9_.-])', name);
  if (policy.failClosed !== undefined && typeof policy.failClosed !== 'boolean')
    invalid(`${where}.failClosed`, 'true or false', policy.failClosed);
  const block = 'To block a route entirely, answer 403 yourself; a limit needs at least one unit per window';
  if (policy.rate !== undefined) {
    if (policy.limit !== undefined) {
      invalid(
        `${where}.limit`,
        'omitted when `rate` is given (use `rate` + `burst`, or `limit` + `windowMs`)',
        policy.limit,
      );
    }
    if (policy.windowMs !== undefined)
      invalid(
        `${where}.windowMs`,
        'omitted when `rate` is given (a rate has `burst`; a window has `limit` + `windowMs`)',
        policy.windowMs,
      );
    const rate = withHint(block, () => positive(`${where}.rate`, policy.rate));
    const burst = withHint('`burst` is the most units at once', () =>
      positive(`${where}.burst`, policy.burst ?? defaultBurst(rate)),
    );
    // A rate so small that `burst / rate` overflows: no window a store can count (every decision NaN).
    finiteRefill(`${where}.rate`, { rate, burst });
    const window = windowOf({ rate, burst });
    return { name, failClosed: policy.failClosed ?? false, limit: { algorithm, ...window } };
  }
  if (policy.burst !== undefined)
    invalid(
      `${where}.burst`,
      'omitted when `limit` is given (use `rate` + `burst`, or `limit` + `windowMs`)',
      policy.burst,
    );
  const limit = withHint(block, () => positive(`${where}.limit`, policy.limit));
  const windowMs = withHint('Give the window in ms, e.g. 60_000 for a minute', () =>
    positive(`${where}.windowMs`, policy.windowMs ?? 60_000),
  );
  return { name, failClosed: policy.failClosed ?? false, limit: { algorithm, limit, windowMs } };
}

/**
 * The Headway error family. Every error Headway throws on purpose is a `HeadwayError` with a
 * literal `name` and a stable `code`, so callers can branch on `code` without `instanceof`
 * (which fails across duplicate copies of the package; use {@link isHeadwayError}).
 */

const MARK = Symbol.for('headway.error');

/** Each Headway error's class by its stable code (what {@link isHeadwayError} narrows to). */
export interface HeadwayErrorByCode {
  HEADWAY_INVALID_OPTION: InvalidOptionError;
  HEADWAY_INVALID_COST: InvalidCostError;
  HEADWAY_RATE_LIMITED: RateLimitedError;
  HEADWAY_RETRY_BUDGET_EXHAUSTED: RetryBudgetExhaustedError;
  HEADWAY_QUEUE_FULL: QueueFullError;
  HEADWAY_TIMEOUT: TimeoutError;
  HEADWAY_DEADLINE_EXCEEDED: DeadlineExceededError;
  HEADWAY_ABORTED: AbortError;
  HEADWAY_STORE_ERROR: StoreError;
  HEADWAY_STORE_TIMEOUT: StoreTimeoutError;
  HEADWAY_UNSUPPORTED_ALGORITHM: UnsupportedAlgorithmError;
}

/** Stable codes of every Headway error. */
export type HeadwayErrorCode = keyof HeadwayErrorByCode;

/** Base class of every Headway error. */
export class HeadwayError extends Error {
  override name = 'HeadwayError';
  readonly code: HeadwayErrorCode;
  readonly [MARK] = true;

  constructor(code: HeadwayErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * True for any Headway error — with `code`, one of that code, narrowed to its class (a
 * `HEADWAY_RATE_LIMITED` error reads as a `RateLimitedError`) — even one thrown by another copy of
 * the package: each entry (`headway`, `headway/redis`, …) carries its own error classes, so
 * `instanceof` across entries is false, and this is the test to use.
 */
export function isHeadwayError<C extends HeadwayErrorCode>(
  value: unknown,
  code: C,
): value is HeadwayErrorByCode[C];
export function isHeadwayError(value: unknown): value is HeadwayError;
export function isHeadwayError(value: unknown, code?: HeadwayErrorCode): value is HeadwayError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[MARK] === true &&
    (code === undefined || (value as HeadwayError).code === code)
  );
}

/** An option failed validation at construction time. `option` names it. */
export class InvalidOptionError extends HeadwayError {
  override name = 'InvalidOptionError' as const;
  constructor(
    readonly option: string,
    message: string,
  ) {
    super('HEADWAY_INVALID_OPTION', message);
  }
}

/** A request asked for more tokens than the bucket can ever hold, or stated a malformed cost. */
export class InvalidCostError extends HeadwayError {
  override name = 'InvalidCostError' as const;
  constructor(
    readonly cost: number,
    readonly capacity: number,
    /** The unit whose cost is wrong (`requests` unless a cost by unit named another). */
    readonly unit = 'requests',
  ) {
    super(
      'HEADWAY_INVALID_COST',
      unit === 'requests'
        ? `Expected \`cost\` to be a positive finite number no larger than ${capacity} (the most one call can take: the policy's \`burst\`, or \`limit\` per window), got \`${cost}\` (${typeof cost}). Lower \`cost\` or raise that limit.`
        : `Expected \`cost.${unit}\` to be a positive finite number, got \`${cost}\` (${typeof cost}).`,
    );
  }
}

/** The call was aborted through its `AbortSignal`. `cause` is the signal's reason. */
export class AbortError extends HeadwayError {
  override name = 'AbortError' as const;
  constructor(cause?: unknown) {
    super('HEADWAY_ABORTED', 'The operation was aborted', { cause });
  }
}

/** Facts attached to every error the client gives up with. */
export interface CallFacts {
  /** The key the call belonged to. */
  key: string;
  /** Attempts sent. */
  attempts: number;
  /** Status of each attempt (`null`: no response, a network error or a timeout). */
  statuses: (number | null)[];
  /** ms the call spent waiting for pacing, gates and backoff. */
  waitedMs: number;
}

/** `epochMs` as an ISO time, or as ms when no `Date` can hold it. */
function isoTime(epochMs: number): string {
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? `${epochMs} ms after the epoch` : date.toISOString();
}

/**
 * The server asked for a wait longer than `maxRetryAfterMs` (a retry hint, or a window it reports
 * exhausted until a later reset): failing fast instead of waiting.
 */

export class RateLimitedError extends HeadwayError {
  override name = 'RateLimitedError' as const;
  constructor(
    readonly facts: CallFacts,
    /** Epoch ms at which the server will take this key again. */
    readonly retryAt: number,
    /** The wait the server asked for, in ms. */
    readonly retryAfterMs: number,
    /** The last response, if one was received (its body is unread). */
    readonly response?: Response,
    /** The exhausted window (`unit:name`, e.g. `requests:day`), when a window and not a hint says so. */
    readonly window: string | null = null,
  ) {
    super(
      'HEADWAY_RATE_LIMITED',
      `Rate limited on ${facts.key}${window === null ? '' : ` (window ${window})`}: the server asked to wait ${retryAfterMs} ms (until ${isoTime(retryAt)}), more than \`maxRetryAfterMs\` allows`,
    );
  }
}

/** A retry was needed but the key's retry budget was spent (only with `onBudgetExhausted: 'throw'`). */
export class RetryBudgetExhaustedError extends HeadwayError {
  override name = 'RetryBudgetExhaustedError' as const;
  constructor(
    readonly facts: CallFacts,
    /** The last response, if one was received. */
    readonly response?: Response,
    cause?: unknown,
  ) {
    super(
      'HEADWAY_RETRY_BUDGET_EXHAUSTED',
      `Retry budget of ${facts.key} exhausted after ${facts.attempts} attempt(s); not retrying`,
      { cause },
    );
  }
}

/** The key's waiting line already holds `maxQueue` calls. */
export class QueueFullError extends HeadwayError {
  override name = 'QueueFullError' as const;
  constructor(
    readonly key: string,
    readonly maxQueue: number,
  ) {
    super(
      'HEADWAY_QUEUE_FULL',
      `Queue of ${key} is full (${maxQueue} calls waiting); raise \`maxQueue\` or slow down`,
    );
  }
}

/** One attempt took longer than `timeoutMs`. */
export class TimeoutError extends HeadwayError {
  override name = 'TimeoutError' as const;
  constructor(
    readonly facts: CallFacts,
    readonly timeoutMs: number,
  ) {
    super('HEADWAY_TIMEOUT', `Attempt ${facts.attempts} on ${facts.key} timed out after ${timeoutMs} ms`);
  }
}

/** The call could not finish within `deadlineMs` (checked up front when a wait is projected). */
export class DeadlineExceededError extends HeadwayError {
  override name = 'DeadlineExceededError' as const;
  constructor(
    readonly facts: CallFacts,
    readonly deadlineMs: number,
    /** The wait that would have been needed, when known. */
    readonly neededMs?: number,
  ) {
    super(
      'HEADWAY_DEADLINE_EXCEEDED',
      `Call on ${facts.key} cannot finish within its deadline of ${deadlineMs} ms${
        neededMs === undefined ? '' : ` (it would have to wait ${Math.ceil(neededMs)} ms more)`
      }`,
    );
  }
}

/** A store call failed (threw or rejected). `cause` is the store's own error. */
export class StoreError extends HeadwayError {
  override name = 'StoreError' as const;
  constructor(
    readonly key: string,
    cause: unknown,
  ) {
    super('HEADWAY_STORE_ERROR', `The rate-limit store failed for key \`${key}\``, { cause });
  }
}

/**
 * A store call did not answer in time. `option` names the setting whose timeout it was (the
 * limiter's `storeTimeoutMs`, the Redis store's `commandTimeoutMs`, or a fixed deadline).
 */
export class StoreTimeoutError extends HeadwayError {
  override name = 'StoreTimeoutError' as const;
  constructor(
    readonly key: string,
    readonly timeoutMs: number,
    readonly option: string | undefined = 'storeTimeoutMs',
  ) {
    super(
      'HEADWAY_STORE_TIMEOUT',
      `The rate-limit store did not answer within ${timeoutMs} ms for key \`${key}\`. ${option ? `Raise \`${option}\` or check the store.` : 'Check the store.'}`,
    );
  }
}

/** An operation the chosen algorithm cannot do (e.g. `reserve` on a window algorithm). */
export class UnsupportedAlgorithmError extends HeadwayError {
  override name = 'UnsupportedAlgorithmError' as const;
  constructor(
    readonly algorithm: string,
    readonly operation: string,
  ) {
    super(
      'HEADWAY_UNSUPPORTED_ALGORITHM',
      `\`${operation}\` is not supported by the \`${algorithm}\` algorithm; use \`token-bucket\` or \`gcra\`.`,
    );
  }
}

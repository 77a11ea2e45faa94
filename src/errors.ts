/**
 * The Headway error family. Every error Headway throws on purpose is a `HeadwayError` with a
 * literal `name` and a stable `code`, so callers can branch on `code` without `instanceof`
 * (which fails across duplicate copies of the package; use {@link isHeadwayError}).
 */

const MARK = Symbol.for('headway.error');

/** Stable codes of every Headway error. */
export type HeadwayErrorCode =
  | 'HEADWAY_INVALID_OPTION'
  | 'HEADWAY_INVALID_COST'
  | 'HEADWAY_RATE_LIMITED'
  | 'HEADWAY_RETRY_BUDGET_EXHAUSTED'
  | 'HEADWAY_QUEUE_FULL'
  | 'HEADWAY_TIMEOUT'
  | 'HEADWAY_DEADLINE_EXCEEDED'
  | 'HEADWAY_ABORTED'
  | 'HEADWAY_STORE_ERROR'
  | 'HEADWAY_STORE_TIMEOUT'
  | 'HEADWAY_UNSUPPORTED_ALGORITHM';

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

/** True for any Headway error, even one thrown by another copy of the package. */
export function isHeadwayError(value: unknown): value is HeadwayError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARK] === true;
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

/** A request asked for more tokens than the bucket can ever hold. */
export class InvalidCostError extends HeadwayError {
  override name = 'InvalidCostError' as const;
  constructor(
    readonly cost: number,
    readonly capacity: number,
  ) {
    super(
      'HEADWAY_INVALID_COST',
      `Expected \`cost\` to be a positive finite number no larger than the capacity ${capacity}, got \`${cost}\` (${typeof cost}). Raise \`burst\` or lower \`cost\`.`,
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

/** A store call did not answer within `storeTimeoutMs`. */
export class StoreTimeoutError extends HeadwayError {
  override name = 'StoreTimeoutError' as const;
  constructor(
    readonly key: string,
    readonly timeoutMs: number,
  ) {
    super(
      'HEADWAY_STORE_TIMEOUT',
      `The rate-limit store did not answer within ${timeoutMs} ms for key \`${key}\`. Raise \`storeTimeoutMs\` or check the store.`,
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

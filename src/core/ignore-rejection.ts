/**
 * A promise a callee handed back where a value was expected (an `async` hook, cost or store
 * method) is dropped: its rejection is handled here, so it never surfaces as an unhandled
 * rejection (which ends a Node process by default).
 */
export function ignoreRejection(value: unknown): void {
  if (isThenable(value)) value.then(undefined, () => {});
}

/** True for a promise, or any object with a `then` method. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

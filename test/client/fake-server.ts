/**
 * A scripted transport for client unit tests: answers on the manual clock, records what it saw.
 */
import type { ManualClock } from '../../src/core/manual-clock.js';

/** One request the fake transport received. */
export interface Seen {
  at: number;
  method: string;
  url: string;
}

/** A response factory: status and headers, or a thrown network error. */
export type Script = (
  seen: Seen,
  index: number,
) => { status: number; headers?: Record<string, string> } | Error;

/** A fetch that answers from `script` after `latencyMs` on the manual clock. */
export function fakeFetch(clock: ManualClock, script: Script, latencyMs = 0) {
  const seen: Seen[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const entry = {
      at: clock.now(),
      method: init?.method ?? 'GET',
      url: input instanceof Request ? input.url : String(input),
    };
    seen.push(entry);
    const index = seen.length - 1;
    if (latencyMs > 0) await clock.sleep(latencyMs, init?.signal ?? undefined);
    if (init?.signal?.aborted) throw init.signal.reason;
    const answer = script(entry, index);
    if (answer instanceof Error) throw answer;
    return new Response(answer.status === 204 ? null : `status ${answer.status}`, {
      status: answer.status,
      headers: answer.headers,
    });
  };
  return { fetch, seen };
}

/** Settles every promise in `calls`, advancing the clock in steps until they all settle (bounded). */
export async function runUntilSettled<T>(
  clock: ManualClock,
  calls: Array<Promise<T>>,
  stepMs = 10,
  maxMs = 600_000,
): Promise<Array<PromiseSettledResult<T>>> {
  let done = false;
  const all = Promise.allSettled(calls).then((results) => {
    done = true;
    return results;
  });
  for (let elapsed = 0; !done && elapsed <= maxMs; elapsed += stepMs) await clock.advance(stepMs);
  return all;
}

/**
 * 8 callers, 13 calls each (104), through `fetch` on `clock` (an hour at most, in steps of 20 ms):
 * `call(caller, i)` is each call's request; `afterCall` runs after each. Returns the calls that did
 * not end in a 200 (their status, or the error's name).
 */
export async function run104Calls(
  clock: ManualClock,
  fetch: (input: string, init: RequestInit) => Promise<Response>,
  call: (caller: number, i: number) => RequestInit,
  afterCall?: () => void,
): Promise<string[]> {
  const failed: string[] = [];
  const caller = async (c: number) => {
    for (let i = 0; i < 13; i++) {
      await fetch('http://127.0.0.1:9/v1/chat/completions', call(c, i)).then(
        (response) => {
          if (response.status !== 200) failed.push(String(response.status));
        },
        (error: Error) => failed.push(error.name),
      );
      afterCall?.();
    }
  };
  await runUntilSettled(
    clock,
    Array.from({ length: 8 }, (_, c) => caller(c)),
    20,
    3_600_000,
  );
  return failed;
}

/**
 * `createFetch()`: a drop-in `fetch` that paces each key, obeys the server's signals and retries
 * only what is safe, inside a retry budget. A thin face over the {@link Engine}: one attempt is one
 * call of the transport `fetch`.
 */

import { invalid, positive } from '../core/validate.js';
import { Engine, type EngineEvents, type Transport } from './engine.js';
import { fetchRefusedAnswer, fetchRefusedUrl, overKeepaliveQuota } from './fetch-refusals.js';
import type { ClientOptions, FetchLike, HeadwayInit } from './options.js';
import { describeRequest, isReplayable, isRequest } from './request.js';
import { untilBodyEnd } from './streamed-answer.js';
import { type WatchedBody, watchBody } from './watched-body.js';

/** The function `createFetch` returns: `fetch`'s signature, plus events and stats. */
export interface HeadwayFetch extends EngineEvents {
  (input: string | URL | Request, init?: HeadwayInit): Promise<Response>;
}

/** A dropped response: its body is cancelled so its connection is freed. */
const cancelBody = (response: Response): void => void response.body?.cancel().catch(() => {});
const asIs = (response: Response): Response => response;

/**
 * True when `fetch` refused the call rather than failed to send it: its `TypeError` with no `cause`
 * (a network failure is `TypeError('fetch failed', { cause })` in Node, but not in every fetch),
 * confirmed by building the same `Request`, which throws for arguments fetch refuses (a GET with a
 * body, credentials in the URL), or by a `keepalive` body over the browser's quota; or its
 * `TypeError` for a URL it never fetches over the network (a blocked port, another scheme:
 * {@link fetchRefusedUrl}; `platform`: the transport is the global `fetch`). Checked only on a
 * failure.
 */
function refusedArguments(
  error: unknown,
  input: string | URL | Request,
  init: RequestInit | undefined,
  platform: boolean,
): boolean {
  if (!(error instanceof TypeError)) return false;
  if (platform && error.cause === undefined && overKeepaliveQuota(init)) return true;
  let url: string;
  try {
    // Without the caller's signal: a `Request` made from it would leave a listener on it until GC.
    url = new Request(input, { ...init, signal: null }).url;
  } catch {
    return error.cause === undefined;
  }
  return fetchRefusedUrl(url, error, platform);
}

/** The redirect mode a call asked for: its `init`'s, else its `Request`'s. */
function redirectOf(
  input: string | URL | Request,
  init: RequestInit | undefined,
): RequestRedirect | undefined {
  return init?.redirect ?? (isRequest(input) ? input.redirect : undefined);
}

/** Validates a call's own options: an `InvalidOptionError` names the one that is wrong. */
function validateInit(init: HeadwayInit | undefined): void {
  if (init === undefined || init === null) return;
  const { queuePriority, deadlineMs, timeoutMs } = init;
  if (queuePriority !== undefined && !(typeof queuePriority === 'number' && Number.isFinite(queuePriority)))
    invalid('queuePriority', 'a finite number', queuePriority);
  if (deadlineMs !== undefined) positive('deadlineMs', deadlineMs);
  if (timeoutMs !== undefined) positive('timeoutMs', timeoutMs);
}

/** Creates a cooperative `fetch`. Options are validated here, not at the first call. */
export function createFetch(options: ClientOptions = {}): HeadwayFetch {
  const engine = new Engine(options);
  // The transport is the platform's own `fetch`, whose bare `TypeError`s (a browser's) say nothing more.
  const platform = engine.options.fetch === undefined;
  // The global `fetch` of the moment, unless it is this client itself (`window.fetch =
  // createFetch()`): then the one it replaced, or each attempt would be a call of its own, on
  // the same key, for ever.
  const replaced = globalThis.fetch;
  const transport = (): FetchLike => {
    if (engine.options.fetch) return engine.options.fetch;
    const current = globalThis.fetch;
    return current === headwayFetch ? replaced : current;
  };

  const headwayFetch = (input: string | URL | Request, init?: HeadwayInit): Promise<Response> => {
    let request: ReturnType<typeof describeRequest>;
    try {
      validateInit(init);
      request = describeRequest(input, init);
    } catch (error) {
      return Promise.reject(error);
    }
    // A stream body is watched once sent (its own failure is the caller's, not an outage), and
    // cancelled, as `fetch` cancels it, when the call ends before it was sent.
    const stream = init?.body instanceof ReadableStream ? (init.body as ReadableStream<Uint8Array>) : null;
    let watched: WatchedBody | null = null;
    let sent = false;
    const attempt: Transport<Response> = {
      send: (signal) => {
        sent = true;
        if (stream && !watched && !stream.locked) watched = watchBody(stream);
        const sentInit = watched ? { ...init, body: watched.body } : init;
        return transport()(input, signal ? { ...sentInit, signal } : sentInit);
      },
      discard: cancelBody,
      response: asIs,
      untilBodyEnd,
      refused: (error) => refusedArguments(error, input, init, platform),
      notServerFault: (error) =>
        fetchRefusedAnswer(error, platform ? redirectOf(input, init) : undefined) ||
        watched?.failedWith(error) === true,
    };
    const run = engine.run(
      {
        request,
        replayable: isReplayable(input, init),
        // As with `fetch`, a `Request`'s own signal counts unless `init` gives one.
        signal: init?.signal !== undefined ? init.signal : isRequest(input) ? input.signal : undefined,
        deadlineMs: init?.deadlineMs,
        timeoutMs: init?.timeoutMs,
        priority: init?.queuePriority,
      },
      attempt,
    );
    const unsent = stream ?? (isRequest(input) ? input.body : null);
    if (!unsent) return run;
    return run.catch((error: unknown) => {
      if (!sent && !unsent.locked) void unsent.cancel(error).catch(() => {});
      throw error;
    });
  };

  return Object.assign(headwayFetch, engine.api);
}

import { createFetch, type HeadwayFetch } from '../../index.js';
import type { Recorder } from './recorder.js';
import { BURST, CALLERS, JOB, jobPath, RATE } from './scenario.js';

/** Sends one call of the job; resolves with its final response. */
export type CallOne = (url: string) => Promise<Response>;

/** Bounds the hand-written retry loops, so that every call settles. */
const MAX_ATTEMPTS = 10_000;

/** Retries a 429 at once and ignores `Retry-After`: what hammers a server. */
function badlyBehaved(): CallOne {
  return async (url) => {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(url);
      if (res.status !== 429 || attempt === MAX_ATTEMPTS) return res;
      await res.arrayBuffer();
    }
  };
}

/** Sleeps `Retry-After` on a 429 and retries, each caller on its own (what many hand-written clients do). */
function naive(recorder: Recorder, id: string): CallOne {
  return async (url) => {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(url);
      if (res.status !== 429 || attempt === MAX_ATTEMPTS) return res;
      await res.arrayBuffer();
      const waitMs = (Number(res.headers.get('retry-after')) || 1) * 1000;
      recorder.waited(id, waitMs);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  };
}

/** Headway's fetch, its waits recorded and its gate shown. */
function headway(recorder: Recorder, id: string, fetch: HeadwayFetch): { call: CallOne; poll: () => void } {
  fetch.onThrottle((event) => recorder.waited(id, event.waitMs));
  const poll = () => {
    const gate = fetch.stats()[0]?.gate;
    if (gate)
      recorder.gate(
        id,
        gate.open ? 'open' : `closed ${Math.round(gate.openInMs)} ms (${gate.reason ?? '?'})`,
      );
  };
  return { call: (url) => fetch(url), poll };
}

/** A demo client ready to run: its call, and what to poll while it runs. */
export interface RunnableClient {
  call: CallOne;
  poll: () => void;
}

/** The Node clients of the demo, by id (see `nodeClients` in scenario.ts). */
export function makeNodeClients(recorder: Recorder): Record<string, RunnableClient> {
  const nothing = () => {};
  return {
    bad: { call: badlyBehaved(), poll: nothing },
    naive: { call: naive(recorder, 'naive'), poll: nothing },
    headway: headway(recorder, 'headway', createFetch()),
    configured: headway(recorder, 'configured', createFetch({ rate: RATE, burst: BURST })),
  };
}

/** Runs client `id`'s job against `serverUrl`: {@link JOB} GETs by {@link CALLERS} callers. */
export async function runJob(
  recorder: Recorder,
  id: string,
  serverUrl: string,
  call: CallOne,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (next < JOB) {
        const n = next++;
        const res = await call(serverUrl + jobPath(id, n)).catch(() => undefined);
        await res?.arrayBuffer().catch(() => undefined);
        recorder.finished(id, res?.status === 200);
      }
    }),
  );
  recorder.jobDone(id);
}

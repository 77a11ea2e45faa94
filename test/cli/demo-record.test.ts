import { describe, expect, it } from 'vitest';
import { clientBundle } from '../../src/cli/demo/bundle.js';
import { Recorder } from '../../src/cli/demo/recorder.js';
import { BIN_MS, nodeClients } from '../../src/cli/demo/scenario.js';
import { reading, summarize } from '../../src/cli/demo/summary.js';
import { frame, plainLines, summaryTable } from '../../src/cli/demo/terminal-view.js';

/** A recorder on a hand-moved clock. */
function recorded() {
  let now = 1_000;
  const recorder = new Recorder(nodeClients, () => now);
  return { recorder, at: (ms: number) => (now = 1_000 + ms) };
}

describe('demo record', () => {
  it('bins decisions, waits and finished calls per 100 ms, per client', () => {
    const { recorder, at } = recorded();
    recorder.decision('bad', true, 3);
    recorder.decision('bad', false, 0);
    at(BIN_MS * 2 + 5);
    recorder.decision('bad', false, 0);
    recorder.waited('naive', 1_000);
    recorder.finished('bad', true);
    recorder.finished('bad', false);
    recorder.jobDone('bad');
    recorder.decision('nobody', true, 1); // not a client of the run: ignored
    const bad = recorder.data().clients[0]!;
    expect(bad).toMatchObject({
      admitted: [1, 0, 0],
      refused: [1, 0, 1],
      level: [0, null, 0],
      done: [0, 0, 2],
      failed: 1,
      finishedS: 0.205,
    });
    expect(recorder.data().clients[1]!.waitedMs).toEqual([0, 0, 1_000]);
  });

  it('summarizes each client from its own record, and the views print those figures', () => {
    const { recorder, at } = recorded();
    for (let i = 0; i < 3; i++) recorder.decision('bad', false, 0);
    recorder.decision('bad', true, 0);
    recorder.decision('headway', true, 9);
    recorder.finished('bad', true);
    recorder.finished('headway', true);
    at(1_800);
    recorder.jobDone('bad');
    recorder.jobDone('headway');
    const data = recorder.data();
    const rows = summarize(data.clients);
    expect(rows[0]).toMatchObject({
      id: 'bad',
      ok: 1,
      admitted: 1,
      refused: 3,
      refusedShare: 0.75,
      seconds: 1.8,
    });
    expect(rows[2]).toMatchObject({ id: 'headway', refused: 0, refusedShare: 0 });
    expect(summaryTable(rows)).toMatch(/^badly-behaved\s+1\s+0\s+1\s+3\s+75\.0 %\s+1\.80 s/m);
    expect(reading(rows)).toContain('sent 4 requests for 1 calls (75.0 % refused');
    expect(frame(data)).toContain('Headway unconfigured');
    expect(plainLines(data).split('\n')).toHaveLength(nodeClients.length);
  });
});

describe('client browser bundle', () => {
  it('builds the client entry for the browser platform (a Node-only import would fail it) as the global Headway', async () => {
    const code = await clientBundle();
    expect(code).toMatch(/^"use strict";var Headway=/);
    const scope: { Headway?: { createFetch?: unknown } } = {};
    new Function('scope', `${code}; scope.Headway = Headway;`)(scope);
    expect(typeof scope.Headway?.createFetch).toBe('function');
  });
});

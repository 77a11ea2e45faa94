/**
 * `headway batch` input lines that `fetch` itself refuses before sending anything (a header name
 * or value that is not HTTP, a method fetch forbids) are bad input: README, Batch jobs, "a
 * malformed line is reported on stderr with its line number (`headway batch: line 7: malformed,
 * skipped: …`), recorded as an error result" with `HEADWAY_BATCH_MALFORMED_LINE`. They must be read
 * as malformed, not passed on as requests whose results say `HEADWAY_BATCH_FETCH_FAILED` with
 * `attempts: 1` though nothing was sent, and no stderr line.
 */
import { describe, expect, it } from 'vitest';
import { parseInputLine } from '../../src/cli/batch-input.js';

describe('headway batch input: a line fetch refuses is malformed', () => {
  it('an invalid header name is a malformed line', () => {
    expect(parseInputLine('{"url":"https://api.test/a","headers":{"bad name":"x"}}', 3)).toMatchObject({
      kind: 'malformed',
      line: 3,
    });
  });

  it('a header value with a line break is a malformed line', () => {
    expect(parseInputLine('{"url":"https://api.test/a","headers":{"x":"a\\nb"}}', 4)).toMatchObject({
      kind: 'malformed',
      line: 4,
    });
  });

  it('a method fetch forbids (TRACE, CONNECT) is a malformed line', () => {
    expect(parseInputLine('{"method":"TRACE","url":"https://api.test/a"}', 5)).toMatchObject({
      kind: 'malformed',
      line: 5,
    });
    expect(parseInputLine('{"method":"CONNECT","url":"https://api.test/a"}', 6)).toMatchObject({
      kind: 'malformed',
      line: 6,
    });
  });
});

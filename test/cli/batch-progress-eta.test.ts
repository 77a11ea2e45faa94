/**
 * The ETA of `headway batch`'s progress line: minutes and seconds, the seconds always 00–59.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startProgress } from '../../src/cli/batch-progress.js';

/** A non-TTY stderr that keeps what it is given. */
function capture(): { stream: NodeJS.WriteStream; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += chunk;
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  stream.isTTY = false;
  return { stream, text: () => text };
}

describe('headway batch progress ETA', () => {
  it('119.5 s left (1,195 requests at 10/s) reads 2m00s, never 1m60s', () => {
    const { stream, text } = capture();
    const progress = startProgress(1195, stream);
    progress.update({ done: 0, total: 1195, rateLimited: 0, rate: 10 });
    progress.stop();
    const last = text().trim().split('\n').at(-1) ?? '';
    expect(last).toContain('ETA 2m00s');
    expect(text()).not.toMatch(/ETA \d+m6\ds/);
  });
});

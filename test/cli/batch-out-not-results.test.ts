/**
 * README, `headway batch`: with `--out`, "the file is read first and every line it already holds is
 * skipped; a last line cut short by a crash is removed", and exit code `2` is "an input or results
 * file that cannot be read". A file that is not a results file at all (a mistyped `--out`, another
 * JSON document) must be refused as it is: today its last line is cut off first, then it is
 * refused, so the command that exits 2 has already destroyed part of the user's file.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecorded } from '../../src/cli/batch-output.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'headway-batch-out-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('headway batch --out: a file that is not a results file', () => {
  it('is refused and left untouched', async () => {
    const file = join(dir, 'notes.json');
    const text = '{\n  "name": "my notes",\n  "keep": true\n}';
    await writeFile(file, text);
    await expect(readRecorded(file)).rejects.toThrow();
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('is refused and left untouched when it is the input file itself', async () => {
    const file = join(dir, 'urls.txt');
    const text = 'https://api.example.com/a\nhttps://api.example.com/b';
    await writeFile(file, text);
    await expect(readRecorded(file)).rejects.toThrow();
    expect(await readFile(file, 'utf8')).toBe(text);
  });
});

import { describe, expect, it } from 'vitest';
import { runHeadway } from '../support/run-child.js';

describe('headway --help', () => {
  it('headway --help prints the usage of every command and exits 0', async () => {
    const result = await runHeadway(['--help'], 15_000);
    expect(result.stdout + result.stderr).toContain('usage: headway serve');
    expect(result.code).toBe(0);
  }, 30_000);

  for (const command of ['serve', 'batch', 'demo']) {
    it(`headway ${command} --help prints its usage and exits 0, no "Unknown option"`, async () => {
      const result = await runHeadway([command, '--help'], 15_000);
      expect(result.stderr).not.toContain("Unknown option '--help'");
      expect(result.stdout + result.stderr).toContain(`usage: headway ${command}`);
      expect(result.code).toBe(0);
    }, 30_000);
  }
});

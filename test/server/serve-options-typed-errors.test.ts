/**
 * README "Client options": a name the table does not list is an `InvalidOptionError` naming it,
 * "so it is for `rateLimit`, …, `startServer`"; README "Options" (server): `clock` is "`Clock`
 * (validated: `now`, `wallNow`, `sleep`)", and `rateLimit` refuses a bad one with
 * `HEADWAY_INVALID_OPTION` naming `clock` (`clock-option-validated.test.ts`). `startServer` (the
 * documented test entry: `startServer({ clock, rate: 2 })`) wraps the clock in its own skewed
 * clock before `rateLimit` sees it, so the wrapper always passes validation and the user's clock
 * is then called raw: a bad `clock` rejects with a bare `TypeError` ("clock.now is not a
 * function"). `keyHeader` (`--key-header`) is not checked either: a non-string rejects with
 * `TypeError: name.toLowerCase is not a function`.
 *
 * Fixed on 2026-12-06 (the fifth review round): `startServer` checks `clock` and `keyHeader`
 * itself, with `InvalidOptionError`s naming them. What the text above describes is how it behaved
 * before.
 */
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import { startServer } from '../../src/server/serve.js';

/** What `startServer(options)` rejects with (a server that started is closed at once). */
async function refusal(options: Parameters<typeof startServer>[0]): Promise<unknown> {
  try {
    const server = await startServer(options);
    await server.close();
    return { started: true };
  } catch (error) {
    const e = error as { name?: unknown; code?: unknown; option?: unknown };
    return { name: e.name, code: e.code, option: e.option };
  }
}

describe('startServer refuses bad options with a typed error naming them', () => {
  it('a clock that is not a Clock', async () => {
    expect(await refusal({ clock: {} as Clock })).toEqual({
      name: 'InvalidOptionError',
      code: 'HEADWAY_INVALID_OPTION',
      option: 'clock',
    });
  });

  it('a keyHeader that is not a string', async () => {
    expect(await refusal({ keyHeader: 5 as unknown as string })).toEqual({
      name: 'InvalidOptionError',
      code: 'HEADWAY_INVALID_OPTION',
      option: 'keyHeader',
    });
  });
});

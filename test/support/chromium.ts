/**
 * Headless Chromium for the browser checks: Debian's `chromium` (or `CHROMIUM_PATH`), driven by
 * playwright-core, which never downloads a browser. Without one the checks skip, saying so once.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Path of a Chromium to drive (`CHROMIUM_PATH` if set), or `undefined` when there is none. */
export function chromiumPath(): string | undefined {
  const given = process.env.CHROMIUM_PATH;
  if (given) return existsSync(given) ? given : undefined;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome'])
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      // not this one
    }
  return undefined;
}

/** The one line printed when the browser checks cannot run. */
export const noChromium =
  'browser checks skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH to one)';

/** Launches headless Chromium at `path`. */
export function launchChromium(path: string): Promise<Browser> {
  return chromium.launch({ executablePath: path, headless: true, args: ['--no-sandbox'] });
}

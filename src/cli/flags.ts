/** `--name`'s value as a finite number (`undefined` when the flag is absent); throws a usage error otherwise. */
export function numberFlag(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value))
    throw new Error(`--${name} expects a number, got "${text}"`);
  return value;
}

/** `--name`'s value as a port, a whole number from 0 to 65535 (`undefined` when absent); throws a usage error otherwise. */
export function portFlag(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 0 || value > 65_535)
    throw new Error(`--${name} expects a port number, got "${text}"`);
  return value;
}

/**
 * The flag an option of the library came from, for an error that names the option: `--window-ms`
 * for `windowMs` or `policy.windowMs`, `--burst` for `policy.limit` (a window's limit is its burst
 * here), or `renamed[option]`; `undefined` when no flag of `flags` sets it.
 */
export function flagOf(
  option: string,
  flags: readonly string[],
  renamed: Readonly<Record<string, string>> = {},
): string | undefined {
  const bare = option.replace(/^policy\./, '');
  const name =
    renamed[bare] ?? (bare === 'limit' ? 'burst' : bare.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
  return flags.includes(name) ? `--${name}` : undefined;
}

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

/** `--name`'s value as a finite number (`undefined` when the flag is absent); throws a usage error otherwise. */
export function numberFlag(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value))
    throw new Error(`--${name} expects a number, got "${text}"`);
  return value;
}

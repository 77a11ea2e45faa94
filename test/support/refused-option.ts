/** The `option` of the `InvalidOptionError` that `make` throws, else what happened instead. */
export function refusedOption(make: () => unknown): string {
  try {
    make();
  } catch (error) {
    const e = error as { code?: string; option?: string };
    return e.code === 'HEADWAY_INVALID_OPTION' ? String(e.option) : `other error: ${String(error)}`;
  }
  return 'no error';
}

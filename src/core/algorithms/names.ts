/** Every limiting algorithm's name, in documentation order: the one list (the Redis store reads it too). */
export const algorithmNames = [
  'token-bucket',
  'sliding-window-counter',
  'fixed-window',
  'sliding-log',
  'gcra',
] as const;

/** Limiting algorithms. */
export type AlgorithmName = (typeof algorithmNames)[number];

/** The targets of issue #12 for a client that learns the server (S1, S1b and S6), written once. */
export const learningTargets = {
  /** Unconfigured, against a server that states counters: wall ≤ this × its minimum. */
  learnedRatio: 1.05,
  /** Unconfigured, against a server that sends only `Retry-After`. */
  retryAfterRatio: 1.45,
  /** …and at most this share of the calls refused. */
  retryAfterRefusedShare: 0.05,
  /** Configured as a bucket, against a window server that states its counters. */
  configuredWindowRatio: 1.1,
} as const;

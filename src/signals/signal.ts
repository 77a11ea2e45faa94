/** Which header family a {@link RateLimitSignal} was read from. */
export type RateLimitDialect =
  | 'ietf' // RateLimit + RateLimit-Policy structured fields (draft-08 and later)
  | 'draft-7' // RateLimit as a Dictionary: limit=, remaining=, reset=
  | 'draft-6' // RateLimit-Limit / -Remaining / -Reset (drafts 03–06)
  | 'x-ratelimit' // X-RateLimit-* / X-Rate-Limit-* (GitHub and most APIs)
  | 'openai' // x-ratelimit-{limit,remaining,reset}-{requests,tokens}
  | 'anthropic' // anthropic-ratelimit-{requests,tokens,...}-*
  | 'discord' // X-RateLimit-Reset-After
  | 'shopify' // X-Shopify-Shop-Api-Call-Limit: 32/40
  | 'retry-after' // only Retry-After / retry-after-ms
  | 'none';

/** One quota window the server described. Fields are `null` when the server did not say. */
export interface RateLimitPolicy {
  /** Policy name (IETF), or the unit for vendor families (`requests`, `tokens`, …). */
  name: string;
  /** Quota units per window. */
  quota: number | null;
  /** Window length in ms. */
  windowMs: number | null;
  /** Units left in the window. */
  remaining: number | null;
  /** ms until the quota resets (IETF `t`). */
  resetInMs: number | null;
  /** Partition key (IETF `pk`): its bytes as canonical base64 (two spellings of the same bytes read alike). */
  partitionKey: string | null;
  /** Quota unit (IETF `qu`): `requests` unless the server says otherwise. */
  unit: string;
}

/** What a response says about rate limits: the server's statement, before any client policy. */
export interface RateLimitSignal {
  /** Minimum ms to wait before retrying this request; `null` when the server gave no hint. */
  retryAfterMs: number | null;
  /** Requests per window of the window the client paces on. */
  limit: number | null;
  /** Requests left in that window. */
  remaining: number | null;
  /** ms until that window resets. */
  resetInMs: number | null;
  /** Epoch ms of that reset: `receivedAt + resetInMs`. */
  resetAtMs: number | null;
  /** Every window the server described. */
  policies: RateLimitPolicy[];
  /** The header family that was read. */
  dialect: RateLimitDialect;
}

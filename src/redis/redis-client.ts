/**
 * The few commands the Redis store sends. ioredis's `Redis` and `Cluster` satisfy it as they are
 * (so `headway/redis` never imports ioredis, not even its types); another client fits through a
 * two-method adapter.
 */
export interface RedisScriptClient {
  /** `EVALSHA sha numkeys key… arg…`; rejects with a `NOSCRIPT …` error when the script is not cached. */
  evalsha(sha1: string, numkeys: number, ...args: (string | number)[]): Promise<unknown>;
  /** `EVAL script numkeys key… arg…` (also caches the script). */
  eval(script: string, numkeys: number, ...args: (string | number)[]): Promise<unknown>;
  /**
   * True for a Redis Cluster (ioredis's `Cluster` says so itself): only calls of one key, whose
   * keys share a hash slot, then go in one batch. An adapter over another cluster client sets it.
   */
  readonly isCluster?: boolean;
}

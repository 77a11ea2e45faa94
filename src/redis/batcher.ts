import { StoreError, StoreTimeoutError } from '../errors.js';
import { batchScript } from './batch-script.js';
import { evalScript } from './eval-script.js';
import type { LuaScript } from './lua-script.js';
import type { RedisScriptClient } from './redis-client.js';

/** Most calls sent in one batch. */
const MOST_PER_BATCH = 128;

interface Call {
  key: string;
  keys: readonly string[];
  args: readonly (string | number)[];
  resolve(reply: unknown): void;
  reject(error: unknown): void;
}

/** Calls waiting for the next flush, by script and by the group they may share a round trip with. */
type Pending = Map<LuaScript, Map<string, Call[]>>;

/**
 * One round trip per turn of the event loop: script calls made in the same turn are sent together
 * as one `EVALSHA` of the script's batch form (a lone call as itself). On a Redis Cluster
 * (`client.isCluster`) only calls of the same limit key are batched, since their keys share one
 * hash slot; elsewhere any calls are. Each call still settles on its own: its reply, or the batch's
 * `StoreTimeoutError`/`StoreError` under its own key.
 */
export class Batcher {
  #pending: Pending = new Map();
  #scheduled = false;
  readonly #batches = new Map<LuaScript, LuaScript>();
  readonly #perKey: boolean;

  constructor(
    readonly client: RedisScriptClient,
    readonly timeoutMs: number,
  ) {
    this.#perKey = (client as { isCluster?: boolean }).isCluster === true;
  }

  /** Runs `script` with `keys` and the four `args` of one call, batched with others of this turn. */
  run(
    script: LuaScript,
    key: string,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let groups = this.#pending.get(script);
      if (!groups) {
        groups = new Map();
        this.#pending.set(script, groups);
      }
      const group = this.#perKey ? key : '';
      const calls = groups.get(group);
      const call = { key, keys, args, resolve, reject };
      if (calls) calls.push(call);
      else groups.set(group, [call]);
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    const pending = this.#pending;
    this.#pending = new Map();
    this.#scheduled = false;
    for (const [script, groups] of pending)
      for (const calls of groups.values())
        for (let i = 0; i < calls.length; i += MOST_PER_BATCH)
          this.#send(script, calls.slice(i, i + MOST_PER_BATCH));
  }

  #send(script: LuaScript, calls: Call[]): void {
    const [first] = calls;
    if (calls.length === 1) {
      evalScript(this.client, script, first!.keys, first!.args, this.timeoutMs, first!.key).then(
        first!.resolve,
        first!.reject,
      );
      return;
    }
    let batch = this.#batches.get(script);
    if (!batch) {
      batch = batchScript(script);
      this.#batches.set(script, batch);
    }
    const keys = calls.flatMap((call) => call.keys);
    const args = [first!.keys.length, ...calls.flatMap((call) => call.args)];
    evalScript(this.client, batch, keys, args, this.timeoutMs, first!.key).then(
      (reply) => {
        if (!Array.isArray(reply) || reply.length !== calls.length) {
          const error = new TypeError(`Unexpected reply from a Headway Redis batch: ${String(reply)}`);
          for (const call of calls) call.reject(new StoreError(call.key, error));
          return;
        }
        for (let i = 0; i < calls.length; i++) calls[i]!.resolve(reply[i]);
      },
      (error: unknown) => {
        for (const call of calls)
          call.reject(
            error instanceof StoreTimeoutError
              ? new StoreTimeoutError(call.key, this.timeoutMs, 'commandTimeoutMs')
              : new StoreError(call.key, error instanceof StoreError ? error.cause : error),
          );
      },
    );
  }
}

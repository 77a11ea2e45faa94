import { StoreError, StoreTimeoutError } from '../errors.js';
import { evalScript } from './eval-script.js';
import type { LuaScript } from './lua-script.js';
import type { RedisScriptClient } from './redis-client.js';
import { batchTime } from './reply.js';

/** Most calls sent in one batch. */
const MOST_PER_BATCH = 128;

/** Fewest calls of one turn that are split in two batches when none is in flight. */
const SPLIT_AT = 16;

/** Reads one call's values from a batch reply: `width` integers from `at`, and the run's Redis time. */
export type BatchDecoder<T> = (reply: readonly number[], at: number, now: number) => T;

interface Call {
  key: string;
  keys: readonly string[];
  args: readonly (string | number)[];
  /** How many integers of the batch reply are this call's. */
  width: number;
  settle(reply: readonly number[], at: number, now: number): void;
  reject(error: unknown): void;
}

/** Calls waiting for the next flush, by script and by the group they may share a round trip with. */
type Pending = Map<LuaScript, Map<string, Call[]>>;

/**
 * One round trip per turn of the event loop: script calls made in the same turn are sent together
 * as one `EVALSHA` of the script's batch form (`batchScript`), in which calls on the same key
 * read and write its state once. On a Redis Cluster (`client.isCluster`) only calls of the same
 * limit key are batched, since their keys share one hash slot; elsewhere any calls are. When no
 * batch is in flight, a turn of {@link SPLIT_AT} calls or more goes out as two halves, the second
 * one turn later, so Redis runs one while this process handles the other's reply: two batches
 * then alternate, and Redis's work and Node's overlap instead of taking turns. Each call still
 * settles on its own: its values, or the batch's `StoreTimeoutError`/`StoreError` under its own
 * key. One timer per batch bounds the wait.
 */
export class Batcher {
  #pending: Pending = new Map();
  #scheduled = false;
  /** Batches sent and not yet settled. */
  #inFlight = 0;
  readonly #perKey: boolean;

  constructor(
    readonly client: RedisScriptClient,
    readonly timeoutMs: number,
  ) {
    this.#perKey = client.isCluster === true;
  }

  /**
   * Runs the batch-form `script` for one call (`keys`, its `args`: limit, windowMs, cost, mode)
   * with the others of this turn; resolves with `decode` of its `width` values of the reply.
   */
  run<T>(
    script: LuaScript,
    key: string,
    keys: readonly string[],
    args: readonly (string | number)[],
    width: number,
    decode: BatchDecoder<T>,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let groups = this.#pending.get(script);
      if (!groups) {
        groups = new Map();
        this.#pending.set(script, groups);
      }
      const group = this.#perKey ? key : '';
      const call: Call = {
        key,
        keys,
        args,
        width,
        settle: (reply, at, now) => resolve(decode(reply, at, now)),
        reject,
      };
      const calls = groups.get(group);
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
    const batches: [LuaScript, Call[]][] = [];
    let total = 0;
    for (const [script, groups] of pending)
      for (const calls of groups.values())
        for (let i = 0; i < calls.length; i += MOST_PER_BATCH) {
          const batch = calls.length <= MOST_PER_BATCH ? calls : calls.slice(i, i + MOST_PER_BATCH);
          batches.push([script, batch]);
          total += batch.length;
        }
    if (this.#inFlight > 0 || total < SPLIT_AT) {
      for (const [script, calls] of batches) this.#send(script, calls);
      return;
    }
    // Nothing in flight: send half now and half one turn later, so that Redis runs the second
    // while this process reads the first's reply and makes its next calls (which go out as one
    // batch while the second is in flight). From then on two batches alternate.
    const half = Math.ceil(total / 2);
    let sent = 0;
    const later: [LuaScript, Call[]][] = [];
    for (const [script, calls] of batches) {
      const first = Math.max(0, Math.min(calls.length, half - sent));
      if (first > 0) this.#send(script, first === calls.length ? calls : calls.slice(0, first));
      if (first < calls.length) later.push([script, first === 0 ? calls : calls.slice(first)]);
      sent += first;
    }
    setImmediate(() => {
      for (const [script, calls] of later) this.#send(script, calls);
    });
  }

  #send(script: LuaScript, calls: Call[]): void {
    const keys: string[] = [];
    const args: (string | number)[] = [calls[0]!.keys.length];
    let width = 0;
    // Consecutive calls of one limit, window and mode share them: `limit, windowMs, mode, count`.
    let run: readonly (string | number)[] | undefined;
    let countAt = 0;
    for (const call of calls) {
      for (const k of call.keys) keys.push(k);
      const own = call.args;
      if (run === undefined || run[0] !== own[0] || run[1] !== own[1] || run[3] !== own[3]) {
        run = own;
        args.push(own[0]!, own[1]!, own[3]!, 0);
        countAt = args.length - 1;
      }
      args[countAt] = (args[countAt] as number) + 1;
      args.push(own[2]!);
      width += call.width;
    }
    this.#inFlight++;
    evalScript(this.client, script, keys, args, this.timeoutMs, calls[0]!.key).then(
      (reply) => {
        this.#inFlight--;
        let now: number;
        try {
          now = batchTime(reply, width);
        } catch (error) {
          for (const call of calls) call.reject(new StoreError(call.key, error));
          return;
        }
        const values = reply as number[];
        let at = 0;
        for (const call of calls) {
          call.settle(values, at, now);
          at += call.width;
        }
      },
      (error: unknown) => {
        this.#inFlight--;
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

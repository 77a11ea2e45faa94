/**
 * A bounded map with approximate least-recently-used eviction in O(1): two generations of `Map`s
 * (as in hashlru). Holds at most `2 · generation` entries.
 */
export class Generations<V> {
  #current = new Map<string, V>();
  #previous = new Map<string, V>();

  /** @param generation entries per generation. */
  constructor(readonly generation: number) {}

  /** The value of `key`, moved to the current generation when found in the previous one. */
  get(key: string): V | undefined {
    const value = this.#current.get(key);
    if (value !== undefined) return value;
    const old = this.#previous.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  /** The value of `key`, computed by `make` (and remembered) when not held. */
  getOrSet(key: string, make: (key: string) => V): V {
    let value = this.get(key);
    if (value === undefined) {
      value = make(key);
      this.set(key, value);
    }
    return value;
  }

  /** Sets `key` in the current generation, rotating generations when it is full. */
  set(key: string, value: V): void {
    if (!this.#current.has(key)) {
      this.#previous.delete(key);
      if (this.#current.size >= this.generation) {
        this.#previous = this.#current;
        this.#current = new Map();
      }
    }
    this.#current.set(key, value);
  }

  /** Every entry, previous generation first. */
  *entries(): IterableIterator<[string, V]> {
    yield* this.#previous;
    yield* this.#current;
  }

  /** Entries held (at most `2 · generation`). */
  get size(): number {
    return this.#current.size + this.#previous.size;
  }
}

/**
 * A model's sends still unanswered, in the order they left: each one's mark (cumulative units up
 * to it) and one figure of the model's (when it left, the units in flight before it). Answers come
 * nearly in send order, so the oldest is taken by moving the start: `Array#shift` on every answer
 * would trim or move the arrays each time (it cost more than the rest of a model's bookkeeping).
 * The entries before the start are dropped in batches: amortized O(1) per answer.
 */

/** Entries taken from the front before the arrays are compacted, at the least. */
const COMPACT_FROM = 64;

/** Unanswered sends by mark, oldest first, each with a number. */
export class PendingSends {
  readonly #marks: number[] = [];
  readonly #values: number[] = [];
  #from = 0;

  /** Sends unanswered. */
  get size(): number {
    return this.#marks.length - this.#from;
  }

  /** The mark of the `i`-th unanswered send, oldest first. */
  markAt(i: number): number {
    return this.#marks[this.#from + i] as number;
  }

  /** The number kept with the `i`-th unanswered send, oldest first. */
  valueAt(i: number): number {
    return this.#values[this.#from + i] as number;
  }

  /** A send left (after every send already kept). */
  add(mark: number, value: number): void {
    this.#marks.push(mark);
    this.#values.push(value);
  }

  /** Removes the send marked `mark`: its number, or `undefined` when none is kept. */
  take(mark: number): number | undefined {
    const marks = this.#marks;
    const values = this.#values;
    const from = this.#from;
    for (let i = from; i < marks.length; i++) {
      if (marks[i] !== mark) continue;
      const value = values[i] as number;
      if (i === from) this.#dropFirst();
      else {
        // An answer that overtook older ones: the later entries move down by one.
        for (let j = i + 1; j < marks.length; j++) {
          marks[j - 1] = marks[j] as number;
          values[j - 1] = values[j] as number;
        }
        marks.pop();
        values.pop();
      }
      return value;
    }
    return undefined;
  }

  #dropFirst(): void {
    const marks = this.#marks;
    const from = this.#from + 1;
    if (from === marks.length) {
      marks.length = 0;
      this.#values.length = 0;
      this.#from = 0;
    } else if (from >= COMPACT_FROM && from * 2 >= marks.length) {
      marks.splice(0, from);
      this.#values.splice(0, from);
      this.#from = 0;
    } else this.#from = from;
  }
}

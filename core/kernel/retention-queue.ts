/**
 * The most recent `capacity` keys, oldest first: pushing one more hands back the oldest, for its
 * owner to forget. A ring: once full, each push overwrites the oldest slot, so a push is O(1)
 * with no copying and the queue holds at most `capacity` keys.
 * @typeParam T - what is retained: a reference by default, or any record its owner forgets by
 */
export class RetentionQueue<T = string> {
  private readonly keys: T[] = [];
  /** The slot of the oldest key once the ring is full (the next one overwritten). */
  private oldest = 0;

  /** @param capacity - how many keys are retained */
  constructor(private readonly capacity: number) {}

  /**
   * Retains a key.
   * @param key - the newest key
   * @returns the oldest key, no longer retained, when the queue was full
   */
  push(key: T): T | undefined {
    const keys = this.keys;
    if (keys.length < this.capacity) {
      keys.push(key);
      return undefined;
    }
    if (this.capacity === 0) return key;
    const evicted = keys[this.oldest] as T;
    keys[this.oldest] = key;
    this.oldest = this.oldest + 1 === this.capacity ? 0 : this.oldest + 1;
    return evicted;
  }
}

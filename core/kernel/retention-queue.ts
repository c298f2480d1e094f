/**
 * The most recent `capacity` keys, oldest first: pushing one more hands back the oldest, for its
 * owner to forget. Amortised O(1): the array is compacted once its dead head reaches the capacity.
 */
export class RetentionQueue {
  private readonly keys: string[] = [];
  private head = 0;

  /** @param capacity - how many keys are retained */
  constructor(private readonly capacity: number) {}

  /**
   * Retains a key.
   * @param key - the newest key
   * @returns the oldest key, no longer retained, when the queue was full
   */
  push(key: string): string | undefined {
    this.keys.push(key);
    if (this.keys.length - this.head <= this.capacity) return undefined;
    const evicted = this.keys[this.head++] as string;
    if (this.head > this.capacity) {
      this.keys.splice(0, this.head);
      this.head = 0;
    }
    return evicted;
  }
}

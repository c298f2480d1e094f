/**
 * Tells, item by item of a merge by receive time, whether an item repeats one already let through
 * from another source at the same receive time (same identity key), as when two recordings overlap
 * in time. Counted as multisets: the n-th item of a key in a source at a receive time is a repeat
 * when some source already gave n of that key there, so within one source nothing is ever a repeat
 * (a recording may hold two identical messages). Keys are only computed once a second source
 * reaches the current receive time: items that no other source shares cost one comparison.
 */
export class CrossSourceRepeats<T extends { readonly recvTs: number }> {
  #ts = Number.NaN;
  #owner = -1;
  readonly #pending: T[] = [];
  /** Per key at the current receive time: how many were let through, and from which source last. */
  #passed: Map<string, { count: number; source: number }> | undefined;
  /** Per source and key at the current receive time: how many that source gave. */
  #given: Map<string, number> | undefined;

  /**
   * @param keyOf - the item's identity (receive time aside): equal keys are the same message
   * @param onRepeat - told each repeat dropped, its source and the source it repeats
   */
  constructor(
    private readonly keyOf: (item: T) => string,
    private readonly onRepeat: (item: T, source: number, original: number) => void,
  ) {}

  /**
   * Whether to let an item through; items must come in non-decreasing receive time.
   * @param item - the next item of the merge
   * @param source - the index of its source
   * @returns false when it repeats an item already let through from another source
   */
  admit(item: T, source: number): boolean {
    if (item.recvTs !== this.#ts) {
      this.#ts = item.recvTs;
      this.#owner = source;
      this.#pending.length = 0;
      this.#passed = undefined;
      this.#given = undefined;
    }
    if (this.#passed === undefined) {
      if (source === this.#owner) {
        this.#pending.push(item);
        return true;
      }
      this.#passed = new Map();
      this.#given = new Map();
      for (const earlier of this.#pending) this.count(earlier, this.#owner);
      this.#pending.length = 0;
    }
    return this.count(item, source);
  }

  private count(item: T, source: number): boolean {
    const key = this.keyOf(item);
    const given = this.#given as Map<string, number>;
    const passed = this.#passed as Map<string, { count: number; source: number }>;
    const sourceKey = `${source}\u0000${key}`;
    const nth = (given.get(sourceKey) ?? 0) + 1;
    given.set(sourceKey, nth);
    const before = passed.get(key);
    if (before !== undefined && before.count >= nth) {
      this.onRepeat(item, source, before.source);
      return false;
    }
    passed.set(key, { count: nth, source });
    return true;
  }
}

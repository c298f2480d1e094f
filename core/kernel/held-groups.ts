/** What {@link HeldGroups.take} gives for a group with nothing held: one shared empty list. */
const NOTHING: readonly never[] = [];

/**
 * Items held in groups until their group is taken, at most the last `kept` of them: adding one
 * more forgets the oldest held item of any group. The kernel's waits for what the venue sent
 * early (orders waiting for their algo order's report, fills waiting for their order's first
 * update) hold their events this way.
 */
export class HeldGroups<T> {
  /** The held items of each group, oldest first, each with its place in the arrival order. */
  private readonly groups = new Map<string, { readonly seq: number; readonly item: T }[]>();
  /** The group of each held item, by its place in the arrival order (oldest first). */
  private readonly groupOf = new Map<number, string>();
  private seq = 0;

  /** @param kept - how many items are held at most */
  constructor(private readonly kept: number) {}

  /** @returns how many items are held */
  get size(): number {
    return this.groupOf.size;
  }

  /**
   * Holds an item in its group.
   * @param group - the group
   * @param item - the item
   * @returns the item forgotten to make room for it (the oldest held), undefined when none was
   */
  add(group: string, item: T): T | undefined {
    const entry = { seq: this.seq++, item };
    const held = this.groups.get(group);
    if (held === undefined) this.groups.set(group, [entry]);
    else held.push(entry);
    this.groupOf.set(entry.seq, group);
    return this.groupOf.size > this.kept ? this.forgetOldest() : undefined;
  }

  /**
   * Ends the wait of a group's items.
   * @param group - the group
   * @returns its held items in the order they were added (empty when none was held)
   */
  take(group: string): readonly T[] {
    if (this.groups.size === 0) return NOTHING;
    const held = this.groups.get(group);
    if (held === undefined) return NOTHING;
    this.groups.delete(group);
    for (const { seq } of held) this.groupOf.delete(seq);
    return held.map((entry) => entry.item);
  }

  /**
   * Ends the wait of the items of a group that match, the others of the group still held.
   * @param group - the group
   * @param match - whether an item is to be taken
   * @returns the items taken, in the order they were added (empty when none matched)
   */
  takeWhere(group: string, match: (item: T) => boolean): readonly T[] {
    const held = this.groups.get(group);
    if (held === undefined) return NOTHING;
    const taken = held.filter((entry) => match(entry.item));
    if (taken.length === 0) return NOTHING;
    for (const { seq } of taken) this.groupOf.delete(seq);
    const kept = held.filter((entry) => !match(entry.item));
    if (kept.length === 0) this.groups.delete(group);
    else this.groups.set(group, kept);
    return taken.map((entry) => entry.item);
  }

  /** @returns the oldest held item, undefined when none is held */
  oldest(): T | undefined {
    const oldest = this.groupOf.entries().next();
    if (oldest.done === true) return undefined;
    return this.groups.get(oldest.value[1])?.[0]?.item;
  }

  /**
   * Forgets the oldest held items, in arrival order, as long as they match.
   * @param match - whether an item is to be forgotten
   * @returns the items forgotten, oldest first (one shared empty list when none)
   */
  forgetOldestWhile(match: (item: T) => boolean): readonly T[] {
    let forgotten: T[] | undefined;
    for (;;) {
      const item = this.oldest();
      if (item === undefined || !match(item)) return forgotten ?? NOTHING;
      this.forgetOldest();
      if (forgotten === undefined) forgotten = [item];
      else forgotten.push(item);
    }
  }

  private forgetOldest(): T | undefined {
    const oldest = this.groupOf.entries().next();
    if (oldest.done === true) return undefined;
    const [seq, group] = oldest.value;
    this.groupOf.delete(seq);
    const held = this.groups.get(group);
    const entry = held?.shift();
    if (held?.length === 0) this.groups.delete(group);
    return entry?.item;
  }
}

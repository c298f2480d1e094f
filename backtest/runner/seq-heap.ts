import type { Staged } from './staged-line.ts';

/** A binary min-heap of staged records by creation number. */
export class SeqHeap {
  private readonly items: Staged[] = [];

  /** Lines held. */
  get size(): number {
    return this.items.length;
  }

  /**
   * @returns the line of the lowest creation number, left in the heap
   */
  peek(): Staged | undefined {
    return this.items[0];
  }

  /**
   * @param item - a line to hold
   */
  push(item: Staged): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as Staged).seq <= item.seq) break;
      items[i] = items[parent] as Staged;
      i = parent;
    }
    items[i] = item;
  }

  /**
   * @returns the line of the lowest creation number, taken out of the heap
   */
  pop(): Staged | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child =
        right < items.length && (items[right] as Staged).seq < (items[left] as Staged).seq ? right : left;
      if ((items[child] as Staged).seq >= last.seq) break;
      items[i] = items[child] as Staged;
      i = child;
    }
    items[i] = last;
    return top;
  }
}

import { HeldGroups } from './held-groups.ts';

/**
 * How many orders naming an algo order the kernel has not seen yet are held for it (see
 * {@link AlgoChildrenAwaiting}). Keel's choice: an algo order's report trails the order it sends
 * by a round trip at most (a stop whose trigger is met at once fires before its place reply), so
 * only the last few such orders matter; a thousand bounds the memory of a session whose
 * hand-placed algo orders, never reported, fire all day.
 */
export const AWAITING_ALGO_CHILDREN_KEPT = 1_000;

/**
 * The orders that name an algo order (`algoOrderId`, the link the venue sends) the kernel has not
 * seen yet and that inherit no owner otherwise, by their key, until that algo order's report
 * arrives and hands them its owner. The venue may push the order a stop sends, and its fill,
 * before the stop's place reply (the private socket is the faster path); without this, the order
 * stayed ownerless, and its strategy never heard of it. The last {@link AWAITING_ALGO_CHILDREN_KEPT}
 * are held, oldest forgotten first.
 */
export class AlgoChildrenAwaiting {
  /** The keys of the held orders, by the algoOrderId they name, in the order first seen. */
  private readonly byAlgo: HeldGroups<string>;
  /** The keys of the held orders. */
  private readonly held = new Set<string>();

  /** @param kept - how many orders are held at most */
  constructor(kept = AWAITING_ALGO_CHILDREN_KEPT) {
    this.byAlgo = new HeldGroups(kept);
  }

  /**
   * Holds an order until the algo order it names is reported.
   * @param key - the order's key in the registry
   * @param algoOrderId - the algo order it names
   */
  hold(key: string, algoOrderId: string): void {
    if (this.held.has(key)) return;
    this.held.add(key);
    const forgotten = this.byAlgo.add(algoOrderId, key);
    if (forgotten !== undefined) this.held.delete(forgotten);
  }

  /**
   * @param key - an order's key
   * @returns whether the order waits for the algo order it names
   */
  awaits(key: string): boolean {
    return this.held.has(key);
  }

  /**
   * Ends the wait of the orders naming an algo order just reported.
   * @param algoOrderId - the algo order's venue id
   * @returns their keys, in the order first seen (empty when none waited)
   */
  take(algoOrderId: string): readonly string[] {
    const keys = this.byAlgo.take(algoOrderId);
    for (const key of keys) this.held.delete(key);
    return keys;
  }
}

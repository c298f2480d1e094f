import { HeldGroups } from './held-groups.ts';
import { RetentionQueue } from './retention-queue.ts';

/**
 * How many orders naming an algo order the kernel has not seen yet are held for it (see
 * {@link AlgoChildrenAwaiting}). Keel's choice: an algo order's report trails the order it sends
 * by a round trip at most (a stop whose trigger is met at once fires before its place reply), so
 * only the last few such orders matter; a thousand bounds the memory of a burst of them.
 */
export const AWAITING_ALGO_CHILDREN_KEPT = 1_000;

/**
 * How long (ms of the run's time) an order naming an algo order the kernel has not seen waits for
 * that algo order's report before it is given up to no strategy. Keel's choice, as long as a
 * session's journal holds the same order (`EARLY_ALGO_CHILDREN_WAIT_MS`, 10 s) and the kernel a
 * fill waiting for its order (`FILL_AWAITING_ORDER_MS`): the report trails the order by a round
 * trip, far less; an algo order placed by hand on the venue is never reported, and the orders it
 * sends all day must not wait for it.
 */
export const AWAITING_ALGO_CHILD_MS = 10_000;

/** An order held for the algo order it names. */
export interface AwaitingAlgoChild {
  /** The order's key in the registry. */
  readonly key: string;
  /** The algo order it names. */
  readonly algoOrderId: string;
  /** The run's time when it was first held, epoch ms. */
  readonly heldAt: number;
}

/**
 * The orders that name an algo order (`algoOrderId`, the link the venue sends) the kernel has not
 * seen yet and that inherit no owner otherwise, by their key, until that algo order's report
 * arrives and hands them its owner. The venue may push the order a stop sends, and its fill,
 * before the stop's place reply (the private socket is the faster path); without this, the order
 * stayed ownerless, and its strategy never heard of it. An order waits at most
 * {@link AWAITING_ALGO_CHILD_MS} ({@link AlgoChildrenAwaiting.giveUp}); the last
 * {@link AWAITING_ALGO_CHILDREN_KEPT} are held, oldest forgotten first.
 */
export class AlgoChildrenAwaiting {
  /** The held orders, by the algoOrderId they name, in the order first seen. */
  private readonly byAlgo: HeldGroups<AwaitingAlgoChild>;
  /** The held orders' keys, each with the algoOrderId it names. */
  private readonly held = new Map<string, string>();
  /** The keys of the last `kept` orders given up, which are not held again. */
  private readonly givenUp = new Set<string>();
  private readonly givenUpOrder: RetentionQueue;
  /** The orders pushed out by newer ones since {@link AlgoChildrenAwaiting.takePushedOut}, oldest first. */
  private pushedOut: AwaitingAlgoChild[] = [];

  /** @param kept - how many orders are held at most, and how many given up are remembered */
  constructor(kept = AWAITING_ALGO_CHILDREN_KEPT) {
    this.byAlgo = new HeldGroups(kept);
    this.givenUpOrder = new RetentionQueue(kept);
  }

  /** @returns how many orders are held */
  get size(): number {
    return this.held.size;
  }

  /**
   * Holds an order until the algo order it names is reported. An order held already stays as it
   * was, and one given up ({@link AlgoChildrenAwaiting.giveUp}, or pushed out) is not held again:
   * its later updates would each wait in vain. When {@link AWAITING_ALGO_CHILDREN_KEPT} are held,
   * the oldest is pushed out and given up before its wait ran out
   * ({@link AlgoChildrenAwaiting.takePushedOut}).
   * @param key - the order's key in the registry
   * @param algoOrderId - the algo order it names
   * @param now - the run's time, epoch ms
   */
  hold(key: string, algoOrderId: string, now: number): void {
    if (this.held.has(key) || this.givenUp.has(key)) return;
    this.held.set(key, algoOrderId);
    const forgotten = this.byAlgo.add(algoOrderId, { key, algoOrderId, heldAt: now });
    if (forgotten === undefined) return;
    this.forget(forgotten);
    this.pushedOut.push(forgotten);
  }

  /**
   * Hands over the orders pushed out by newer ones since last asked: given up like those whose
   * wait ran out, to no strategy.
   * @returns them, oldest first (empty when none)
   */
  takePushedOut(): readonly AwaitingAlgoChild[] {
    if (this.pushedOut.length === 0) return NO_CHILDREN;
    const pushedOut = this.pushedOut;
    this.pushedOut = [];
    return pushedOut;
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
    const children = this.byAlgo.take(algoOrderId);
    if (children.length === 0) return NO_KEYS;
    for (const { key } of children) this.held.delete(key);
    return children.map((child) => child.key);
  }

  /**
   * Gives up the orders held longer than {@link AWAITING_ALGO_CHILD_MS}: their algo order's report
   * no longer hands them an owner.
   * @param now - the run's time, epoch ms
   * @returns the orders given up, oldest first (empty when none)
   */
  giveUp(now: number): readonly AwaitingAlgoChild[] {
    if (this.held.size === 0) return NO_CHILDREN;
    const expired = this.byAlgo.forgetOldestWhile((child) => now - child.heldAt > AWAITING_ALGO_CHILD_MS);
    for (const child of expired) this.forget(child);
    return expired;
  }

  /**
   * Gives up one held order before its wait ran out (its routing ran out of room for what it held
   * of it): it is not held again.
   * @param key - the order's key
   * @returns the order given up, undefined when it was not held
   */
  giveUpOne(key: string): AwaitingAlgoChild | undefined {
    const algoOrderId = this.held.get(key);
    if (algoOrderId === undefined) return undefined;
    const [child] = this.byAlgo.takeWhere(algoOrderId, (held) => held.key === key);
    if (child !== undefined) this.forget(child);
    return child;
  }

  /** Ends an order's wait for good: it is not held again. */
  private forget({ key }: AwaitingAlgoChild): void {
    this.held.delete(key);
    this.givenUp.add(key);
    const forgotten = this.givenUpOrder.push(key);
    if (forgotten !== undefined) this.givenUp.delete(forgotten);
  }

  /**
   * @returns when the order held longest was held (the run's time, epoch ms), undefined when none is
   */
  oldestHeldAt(): number | undefined {
    return this.byAlgo.oldest()?.heldAt;
  }
}

/** What {@link AlgoChildrenAwaiting.take} gives when no order waited: one shared empty list. */
const NO_KEYS: readonly string[] = [];

/** What {@link AlgoChildrenAwaiting.giveUp} gives when none is held: one shared empty list. */
const NO_CHILDREN: readonly AwaitingAlgoChild[] = [];

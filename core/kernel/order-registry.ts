import { isNewerOrderUpdate } from '../execution/index.ts';
import type { AlgoOrder, AlgoOrderPending, Order } from '../model/index.ts';
import { isFinalAlgoState, isFinalOrderState } from '../model/index.ts';
import { AlgoChildrenAwaiting, type AwaitingAlgoChild } from './algo-children-awaiting.ts';
import { orderKey } from './order-keys.ts';
import {
  inheritedAlgoOwner,
  inheritedOrderOwner,
  inheritedOwner,
  type LineageLookups,
} from './order-lineage.ts';
import { generatedRefOwner } from './ref-adoption.ts';
import { RetentionQueue } from './retention-queue.ts';

/**
 * Orders and algo orders by venue id and by caller reference (clientOrderId), with the strategy
 * that owns each reference. An order placed without a clientOrderId (by hand on the venue) is held
 * by a key made from its orderId instead ({@link orderKey}), so two such orders stay apart. Ownership is recorded when the kernel submits an intent, before the
 * venue answers, so even a synchronous answer finds its owner. An order or algo order the venue
 * places on a strategy's behalf (a take-profit / stop-loss attachment, the order a fired algo
 * order sends) belongs to its parent's owner: recorded when it is first seen, from the parent
 * link the venue sends or the parent its reference names ({@link inheritedOrderOwner}), so it
 * stays the strategy's after the parent is forgotten; one that names an algo order not reported yet
 * (a stop that fired before its place reply arrived) inherits that algo order's owner when its
 * report arrives ({@link AlgoChildrenAwaiting}), within 10 s of the run's time. Final orders (and finished algo orders) are
 * kept for lookups until `retainFinal` newer ones have finished, then forgotten, so a long run's
 * memory stays bounded (Keel's choice: an update arriving after that would be taken as a new order).
 */
export class OrderRegistry implements LineageLookups {
  /** Latest state of each order, by clientOrderId (by {@link orderKey} for one placed without). */
  readonly byRef = new Map<string, Order>();
  /** Latest state of each order the venue has numbered, by orderId. */
  readonly byId = new Map<string, Order>();
  /** Orders not in a final state, by {@link orderKey}, in the order they were first seen. */
  readonly open = new Map<string, Order>();
  /**
   * The keys ({@link orderKey}) of the same open orders grouped by sym, so a per-sym question does not walk
   * every open order. References, not orders: an update of an open order (most of them) leaves
   * its groups as they are.
   */
  readonly openBySym = new Map<string, Set<string>>();
  /** The keys of the same open orders grouped by the strategy owning them. */
  readonly openByOwner = new Map<string, Set<string>>();
  /**
   * The last group emptied, of a sym and of an owner: taken out of its map (which holds no empty
   * group) and filed again for the next sym or owner that needs a group, where a strategy trading
   * one order at a time made both groups anew with every order.
   */
  private readonly spareGroups: SpareGroups = { bySym: undefined, byOwner: undefined };
  /** Algo orders by clientAlgoOrderId. */
  readonly algoByRef = new Map<string, AlgoOrder>();
  /** Open algo orders by clientAlgoOrderId. */
  readonly openAlgo = new Map<string, AlgoOrder>();
  /** How many open algo orders each parent order has attached (its tp/sl legs), by the parent's orderId. */
  private readonly openLegsByParent = new Map<string, number>();
  /**
   * The leg that fired, by its parent's orderId, while the parent's other leg is open: the venue
   * cancels that one (one-cancels-the-other), which the kernel tells the strategy as the reason.
   */
  private readonly triggeredLegs = new Map<string, string>();
  /**
   * Open attached legs beyond the first of their parent: a tp/sl pair is one-cancels-the-other
   * (when one fires, the venue cancels the other), so it counts as one open algo order.
   */
  private secondLegs = 0;
  /** Algo orders by algoOrderId: the parent a fired order names. */
  readonly algoByVenueId = new Map<string, AlgoOrder>();
  /**
   * What is known of each reference besides its order: its owner, the venue's last word and the
   * close that made it. One record per key where three maps by the same key cost three look-ups
   * per venue update and three deletes per order forgotten.
   */
  private readonly facts = new Map<string, RefFacts>();
  /** How many records name a close ({@link RefFacts.closeRef}): none, and no look-up is made. */
  private closeOrderCount = 0;
  private readonly finals: RetentionQueue;
  private readonly finalAlgos: RetentionQueue;
  /** References of recent position close commands, whose orders the venue numbers `<ref>-1`... */
  private readonly closeRefs = new Set<string>();
  private readonly recentCloses: RetentionQueue;
  /** Orders owned by no strategy yet that name an algo order not reported yet. */
  private readonly awaiting = new AlgoChildrenAwaiting();
  /** Strategies whose earlier runs' orders are adopted by reference (empty: none, as in backtests). */
  private adoptingIds: ReadonlySet<string> = new Set();

  /**
   * @param retainFinal - how many finished orders, and how many finished algo orders, stay
   *   available to lookups (default 10 000 each)
   * @param now - the run's clock, epoch ms: when an order began to wait for its algo order
   *   ({@link OrderRegistry.giveUpAwaitingAlgo}); default always 0
   */
  constructor(
    retainFinal = 10_000,
    private readonly now: () => number = () => 0,
  ) {
    this.finals = new RetentionQueue(retainFinal);
    this.finalAlgos = new RetentionQueue(retainFinal);
    this.recentCloses = new RetentionQueue(retainFinal);
  }

  /**
   * Records which strategy owns a caller reference.
   * @param ref - clientOrderId or clientAlgoOrderId
   * @param strategyId - the owner
   */
  own(ref: string, strategyId: string): void {
    const facts = this.facts.get(ref);
    const previous = facts?.owner;
    if (facts === undefined) this.facts.set(ref, factsOf(strategyId, undefined));
    else facts.owner = strategyId;
    if (!this.open.has(ref) || previous === strategyId) return;
    if (previous !== undefined) leave(this.openByOwner, this.spareGroups, 'byOwner', previous, ref);
    groupOf(this.openByOwner, this.spareGroups, 'byOwner', strategyId).add(ref);
  }

  /**
   * From now on, an order or algo order with no owner of this run whose reference has the form of
   * one of these strategies' generated references (`{id}-{run tag}-{n}`, an earlier run's) becomes
   * that strategy's own when first seen ({@link generatedRefOwner}): after a restart, the
   * reconciliation hands each strategy back its resting orders.
   * @param strategyIds - this run's strategy ids
   */
  adoptGeneratedRefsOf(strategyIds: ReadonlySet<string>): void {
    this.adoptingIds = strategyIds;
  }

  /**
   * Records which strategy sent a position close command, whose close orders the venue names
   * after it (`<ref>` or, closing several positions, `<ref>-1`, `<ref>-2`...). The last
   * `retainFinal` close commands are remembered.
   * @param ref - the command's reference
   * @param strategyId - the owner
   */
  ownClose(ref: string, strategyId: string): void {
    this.own(ref, strategyId);
    this.closeRefs.add(ref);
    const evicted = this.recentCloses.push(ref);
    if (evicted !== undefined) this.closeRefs.delete(evicted);
  }

  /**
   * @param ref - a reference
   * @returns whether it is a recent position close command's
   */
  isCloseRef(ref: string): boolean {
    return this.closeRefs.has(ref);
  }

  /**
   * Records that a position close command made an order (the venue named it after the command, or
   * the kernel claimed it for the close, see `InFlightCloses`): its updates and fills carry the
   * command's reference as `closeRef`.
   * @param key - the order's key ({@link orderKey})
   * @param closeRef - the close command's reference
   */
  noteCloseOrder(key: string, closeRef: string): void {
    let facts = this.facts.get(key);
    if (facts === undefined) {
      facts = factsOf(undefined, undefined);
      this.facts.set(key, facts);
    }
    if (facts.closeRef === undefined) this.closeOrderCount++;
    facts.closeRef = closeRef;
  }

  /**
   * @param key - an order's key ({@link orderKey})
   * @returns the reference of the position close that made the order, or undefined for another order
   */
  closeRefOf(key: string): string | undefined {
    return this.closeOrderCount === 0 ? undefined : this.facts.get(key)?.closeRef;
  }

  /**
   * The strategy owning a caller reference: the one that placed it, else (for a reference the
   * venue made for a child not seen yet, e.g. a stop-loss attachment a strategy cancels on a
   * venue that does not report attachments) the owner of the parent the reference names.
   * @param ref - clientOrderId or clientAlgoOrderId
   * @returns the strategy id, or undefined for orders placed outside this kernel
   */
  ownerOf(ref: string): string | undefined {
    return this.facts.get(ref)?.owner ?? inheritedOwner(ref, this);
  }

  /**
   * @param ref - clientOrderId or clientAlgoOrderId
   * @returns the strategy recorded as its owner, without inheritance
   */
  recordedOwner(ref: string): string | undefined {
    return this.facts.get(ref)?.owner;
  }

  /**
   * @param orderId - the venue's order id
   * @returns the order, while remembered
   */
  orderById(orderId: string): Order | undefined {
    return this.byId.get(orderId);
  }

  /**
   * @param algoOrderId - the venue's algo order id
   * @returns the algo order, while remembered
   */
  algoById(algoOrderId: string): AlgoOrder | undefined {
    return this.algoByVenueId.get(algoOrderId);
  }

  /**
   * Folds a venue order update through the execution layer's order state machine: a final order
   * never changes again, and an update that is not newer than the venue's last word on the same
   * order (duplicate, late arrival) is absorbed. Keel's in-flight placeholders always give way
   * to the venue, and so does a final state Keel synthesized (`synthesized`, e.g. REJECTED for an
   * order the venue had not booked yet): the venue's later word on that order wins. A synthesized
   * update is never taken as the venue's last word.
   * @param order - the order as the venue reports it, or as Keel synthesized it
   * @returns true when the update changed the state
   */
  applyVenue(order: Order): boolean {
    const ref = orderKey(order);
    const previous = this.byRef.get(ref);
    if (previous !== undefined && isFinalOrderState(previous.orderState)) {
      if (previous.synthesized !== true || order.synthesized === true) return false;
    }
    if (order.synthesized === true) {
      this.adoptOrder(order, ref);
      this.store(order, ref);
      return true;
    }
    const facts = this.facts.get(ref);
    const last = facts?.lastVenue;
    if (last !== undefined && !isNewerOrderUpdate(last, order)) return false;
    if (facts === undefined) this.facts.set(ref, factsOf(undefined, order));
    else facts.lastVenue = order;
    this.adoptOrder(order, ref);
    this.store(order, ref);
    return true;
  }

  /**
   * Stores Keel's own view of an order while a request is in flight (PENDING_* states).
   * @param order - the placeholder or the order with its in-flight state
   */
  applyLocal(order: Order): void {
    this.store(order, orderKey(order));
  }

  /**
   * Folds an algo order update; a finished algo order never changes again.
   * @param algo - the algo order as reported
   * @returns true when the update changed the state
   */
  applyAlgo(algo: AlgoOrder): boolean {
    if (!this.takesAlgo(algo)) return false;
    if (this.recordedOwner(algo.clientAlgoOrderId) === undefined)
      this.adopt(
        algo.clientAlgoOrderId,
        this.ownerToAdopt(algo.clientAlgoOrderId, inheritedAlgoOwner(algo, this)),
      );
    this.algoByRef.set(algo.clientAlgoOrderId, algo);
    if (algo.algoOrderId !== '') {
      this.algoByVenueId.set(algo.algoOrderId, algo);
      this.handDown(algo);
    }
    const wasOpen = this.openAlgo.get(algo.clientAlgoOrderId);
    if (!isFinalAlgoState(algo.state)) {
      this.openAlgo.set(algo.clientAlgoOrderId, algo);
      if (wasOpen === undefined) this.legOpened(algo.attachedOrderId);
      return true;
    }
    this.openAlgo.delete(algo.clientAlgoOrderId);
    if (algo.state === 'TRIGGERED' && wasOpen !== undefined) this.noteTriggeredLeg(wasOpen);
    if (wasOpen !== undefined) this.legClosed(wasOpen.attachedOrderId);
    const evicted = this.finalAlgos.push(algo.clientAlgoOrderId);
    if (evicted !== undefined) this.forgetAlgo(evicted);
    return true;
  }

  /**
   * @param algo - an algo order as reported
   * @returns whether {@link applyAlgo} would take it: the algo order is not finished, and the
   *   report is not older than the last one
   */
  takesAlgo(algo: AlgoOrder): boolean {
    const previous = this.algoByRef.get(algo.clientAlgoOrderId);
    return (
      previous === undefined || (!isFinalAlgoState(previous.state) && algo.updateAt >= previous.updateAt)
    );
  }

  /**
   * @param algo - an algo order as reported
   * @returns whether the report says what the last one did (the same state, terms and time: a
   *   venue's reply and its push of one change, or a lookup's answer), so no strategy hears it twice
   */
  repeatsAlgo(algo: AlgoOrder): boolean {
    const last = this.algoByRef.get(algo.clientAlgoOrderId);
    return (
      last !== undefined &&
      last.state === algo.state &&
      last.updateAt === algo.updateAt &&
      last.triggerPrice.eq(algo.triggerPrice) &&
      last.price.eq(algo.price) &&
      last.qty.eq(algo.qty)
    );
  }

  /**
   * Marks an open algo order with Keel's request in flight on it, or clears the mark, in place of
   * the venue's last report (which the next report replaces).
   * @param ref - the clientAlgoOrderId
   * @param pending - the mark, undefined to clear it
   */
  markAlgo(ref: string, pending: AlgoOrderPending | undefined): void {
    const algo = this.openAlgo.get(ref);
    if (algo === undefined || algo.pending === pending) return;
    const { pending: _, ...unmarked } = algo;
    const marked: AlgoOrder = pending === undefined ? unmarked : { ...unmarked, pending };
    this.openAlgo.set(ref, marked);
    this.algoByRef.set(ref, marked);
    if (this.algoByVenueId.get(algo.algoOrderId) === algo) this.algoByVenueId.set(algo.algoOrderId, marked);
  }

  /**
   * @param algo - an algo order attached to an order (a take-profit or stop-loss leg)
   * @returns whether the other leg attached to the same order fired, while that order has a leg open
   */
  siblingTriggered(algo: AlgoOrder): boolean {
    const parent = algo.attachedOrderId ?? this.algoByRef.get(algo.clientAlgoOrderId)?.attachedOrderId;
    if (parent === undefined || parent === '') return false;
    const fired = this.triggeredLegs.get(parent);
    return fired !== undefined && fired !== algo.clientAlgoOrderId;
  }

  private noteTriggeredLeg(algo: AlgoOrder): void {
    const parent = algo.attachedOrderId;
    if (parent !== undefined && parent !== '' && (this.openLegsByParent.get(parent) ?? 0) > 1)
      this.triggeredLegs.set(parent, algo.clientAlgoOrderId);
  }

  /**
   * Open algo orders that are the second open leg of their parent's tp/sl pair: the open algo
   * orders less these are those that may each still put an order on the book.
   * @returns the count
   */
  get openSecondLegs(): number {
    return this.secondLegs;
  }

  private legOpened(parent: string | undefined): void {
    if (parent === undefined || parent === '') return;
    const open = (this.openLegsByParent.get(parent) ?? 0) + 1;
    this.openLegsByParent.set(parent, open);
    if (open > 1) this.secondLegs++;
  }

  private legClosed(parent: string | undefined): void {
    if (parent === undefined || parent === '') return;
    const open = (this.openLegsByParent.get(parent) ?? 1) - 1;
    if (open > 0) this.secondLegs--;
    if (open > 0) this.openLegsByParent.set(parent, open);
    else {
      this.openLegsByParent.delete(parent);
      this.triggeredLegs.delete(parent);
    }
  }

  /**
   * @param key - an order's key ({@link orderKey})
   * @returns whether the order, owned by no strategy yet, names an algo order not reported yet,
   *   whose owner it will inherit when that report arrives ({@link AlgoChildrenAwaiting})
   */
  awaitsAlgo(key: string): boolean {
    return this.awaiting.awaits(key);
  }

  /**
   * Gives up the orders that waited too long for the algo order they name (see
   * {@link AlgoChildrenAwaiting.giveUp}): that algo order's report no longer hands them its owner.
   * @param now - the run's time, epoch ms
   * @returns the orders given up, oldest first
   */
  giveUpAwaitingAlgo(now: number): readonly AwaitingAlgoChild[] {
    return this.awaiting.giveUp(now);
  }

  /**
   * Gives up one order waiting for the algo order it names before its wait ran out (see
   * {@link AlgoChildrenAwaiting.giveUpOne}).
   * @param key - the order's key ({@link orderKey})
   * @returns the order given up, undefined when it did not wait
   */
  giveUpAwaitingAlgoOrder(key: string): AwaitingAlgoChild | undefined {
    return this.awaiting.giveUpOne(key);
  }

  /**
   * The orders pushed out of the wait for their algo order by newer ones since last asked (see
   * {@link AlgoChildrenAwaiting.takePushedOut}).
   * @returns them, oldest first
   */
  takeAwaitingAlgoPushedOut(): readonly AwaitingAlgoChild[] {
    return this.awaiting.takePushedOut();
  }

  /** @returns when the order waiting longest for its algo order began to (epoch ms), undefined when none waits */
  awaitingAlgoSince(): number | undefined {
    return this.awaiting.size === 0 ? undefined : this.awaiting.oldestHeldAt();
  }

  /**
   * Records the owner an order the venue made inherits; one that inherits none but names an algo
   * order not reported yet (fired before its place reply arrived) waits for that algo order.
   */
  private adoptOrder(order: Order, ref: string): void {
    if (this.recordedOwner(ref) !== undefined) return;
    this.adopt(ref, this.ownerToAdopt(ref, inheritedOrderOwner(order, this)));
    const { algoOrderId } = order;
    if (algoOrderId === undefined || algoOrderId === '' || this.recordedOwner(ref) !== undefined) return;
    if (!this.algoByVenueId.has(algoOrderId)) this.awaiting.hold(ref, algoOrderId, this.now());
  }

  /** The orders that named an algo order before its report arrived become its owner's. */
  private handDown(algo: AlgoOrder): void {
    const children = this.awaiting.take(algo.algoOrderId);
    if (children.length === 0) return;
    const owner = this.recordedOwner(algo.clientAlgoOrderId);
    if (owner === undefined) return;
    for (const key of children) {
      if (this.recordedOwner(key) === undefined) this.own(key, owner);
      this.stampAlgoRef(key, algo.clientAlgoOrderId);
    }
  }

  /** An order that came before the algo order that placed it gets that algo order's reference (`algoRef`). */
  private stampAlgoRef(key: string, algoRef: string): void {
    const order = this.byRef.get(key);
    if (order === undefined || order.algoRef !== undefined || algoRef === '') return;
    const stamped = { ...order, algoRef };
    this.byRef.set(key, stamped);
    if (this.byId.get(order.orderId) === order) this.byId.set(order.orderId, stamped);
    if (this.open.get(key) === order) this.open.set(key, stamped);
  }

  /** The inherited owner, else the strategy whose earlier run's generated reference it carries. */
  private ownerToAdopt(ref: string, inherited: string | undefined): string | undefined {
    return inherited ?? generatedRefOwner(ref, this.adoptingIds);
  }

  /** Records the owner a venue-made order inherits, filing it under that owner if already open. */
  private adopt(ref: string, owner: string | undefined): void {
    if (owner !== undefined) this.own(ref, owner);
  }

  /** Files an order's latest state under its key ({@link orderKey}, which the caller has made). */
  private store(order: Order, ref: string): void {
    this.byRef.set(ref, order);
    if (order.orderId !== '') this.byId.set(order.orderId, order);
    if (!isFinalOrderState(order.orderState)) {
      const previous = this.open.get(ref);
      this.open.set(ref, order);
      if (previous !== undefined && previous.sym === order.sym) return;
      // An update naming another sym moves the order; the old sym must not keep counting it.
      if (previous !== undefined) this.unindex(previous, ref);
      this.index(order, ref);
      return;
    }
    const wasOpen = this.open.get(ref);
    if (wasOpen !== undefined) {
      this.open.delete(ref);
      this.unindex(wasOpen, ref);
    }
    const evicted = this.finals.push(ref);
    if (evicted !== undefined) this.forget(evicted);
  }

  /** Files an open order, held under `ref`, under its sym and its owner. */
  private index(order: Order, ref: string): void {
    groupOf(this.openBySym, this.spareGroups, 'bySym', order.sym).add(ref);
    const owner = this.recordedOwner(ref);
    if (owner !== undefined) groupOf(this.openByOwner, this.spareGroups, 'byOwner', owner).add(ref);
  }

  /** Takes an order, held under `ref`, out of the sym and owner groups; a group left empty becomes the spare. */
  private unindex(order: Order, ref: string): void {
    leave(this.openBySym, this.spareGroups, 'bySym', order.sym, ref);
    const owner = this.recordedOwner(ref);
    if (owner !== undefined) leave(this.openByOwner, this.spareGroups, 'byOwner', owner, ref);
  }

  /** Forgets a finished algo order (its child orders already hold their own owner). */
  private forgetAlgo(ref: string): void {
    const algo = this.algoByRef.get(ref);
    if (algo === undefined || !isFinalAlgoState(algo.state)) return;
    this.algoByRef.delete(ref);
    if (this.algoByVenueId.get(algo.algoOrderId) === algo) this.algoByVenueId.delete(algo.algoOrderId);
    // An order may hold the same key (its venue word, its close): only the owner goes.
    const facts = this.facts.get(ref);
    if (facts === undefined) return;
    if (facts.lastVenue === undefined && facts.closeRef === undefined) this.facts.delete(ref);
    else facts.owner = undefined;
  }

  private forget(ref: string): void {
    const order = this.byRef.get(ref);
    if (order === undefined || !isFinalOrderState(order.orderState)) return;
    this.byRef.delete(ref);
    if (this.byId.get(order.orderId) === order) this.byId.delete(order.orderId);
    if (this.closeOrderCount > 0 && this.facts.get(ref)?.closeRef !== undefined) this.closeOrderCount--;
    this.facts.delete(ref);
  }
}

/** What the registry knows of one reference: an order's key, an algo order's or a command's. */
interface RefFacts {
  /** The strategy owning the reference, once recorded. */
  owner: string | undefined;
  /** The venue's last word on the order of this key, which updates are compared with. */
  lastVenue: Order | undefined;
  /** The reference of the position close command that made the order of this key. */
  closeRef: string | undefined;
}

/** A record of one reference, its fields in one order so every record has one shape. */
function factsOf(owner: string | undefined, lastVenue: Order | undefined): RefFacts {
  return { owner, lastVenue, closeRef: undefined };
}

/** An empty group kept for reuse, per kind of group. */
interface SpareGroups {
  bySym: Set<string> | undefined;
  byOwner: Set<string> | undefined;
}

/** The group of `key`, filed from the spare one of its kind (or made) when it has none. */
function groupOf(
  groups: Map<string, Set<string>>,
  spares: SpareGroups,
  kind: keyof SpareGroups,
  key: string,
): Set<string> {
  let group = groups.get(key);
  if (group === undefined) {
    group = spares[kind] ?? new Set();
    spares[kind] = undefined;
    groups.set(key, group);
  }
  return group;
}

/** Takes `ref` out of the group of `key`; a group left empty leaves `groups` as the spare of its kind. */
function leave(
  groups: Map<string, Set<string>>,
  spares: SpareGroups,
  kind: keyof SpareGroups,
  key: string,
  ref: string,
): void {
  const group = groups.get(key);
  if (group === undefined) return;
  group.delete(ref);
  if (group.size > 0) return;
  groups.delete(key);
  spares[kind] = group;
}

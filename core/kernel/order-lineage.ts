import type { AlgoOrder, Order } from '../model/index.ts';

/**
 * The suffixes the venue appends to a parent's reference for the orders it places on the parent's
 * behalf: a take-profit / stop-loss attachment (`<order ref>-tp`, `<order ref>-sl`) and the order
 * an algo order sends when it fires (`<algo ref>-trig`). When the parent's reference does not leave
 * room (40 characters) or is taken, the venue puts its own id of the parent in front instead
 * (`<orderId>-tp`, `<algoOrderId>-trig`). Keel's simulated and paper venues name them so; the
 * spec shows no names (Keel's choice, read only when the venue sends no parent link). A position
 * close that closes several positions names its orders `<close ref>-1`, `-2`...: read only for the
 * references of close commands.
 */
export const VENUE_CHILD_SUFFIXES = ['-tp', '-sl', '-trig'] as const;

const NUMBERED = /^(.+)-\d+$/;

/** A chain of venue-made orders is short (an attachment's fired order is two steps from its entry). */
const MAX_DEPTH = 4;

/** What lineage reads: recorded owners, and orders and algo orders by the venue's ids. */
export interface LineageLookups {
  /** @returns the strategy recorded as owning a reference, without inheritance */
  recordedOwner(ref: string): string | undefined;
  /** @returns the order the venue numbered so, while it is remembered */
  orderById(orderId: string): Order | undefined;
  /** @returns the algo order the venue numbered so, while it is remembered */
  algoById(algoOrderId: string): AlgoOrder | undefined;
  /** @returns whether a reference is a position close command's (its orders are numbered) */
  isCloseRef(ref: string): boolean;
}

/**
 * The strategy owning an order the venue placed on a strategy's behalf: the owner of the algo
 * order named by its `algoOrderId` (the link the venue sends, per public venue docs), else of the
 * parent its reference names.
 * @param order - an order no strategy placed itself
 * @param lookups - the registry's lookups
 * @returns the parent's owner, or undefined when the order has no known parent
 */
export function inheritedOrderOwner(order: Order, lookups: LineageLookups): string | undefined {
  const algo = order.algoOrderId ? lookups.algoById(order.algoOrderId) : undefined;
  return linkedOrNamedOwner(algo?.clientAlgoOrderId, order.clientOrderId, lookups);
}

/**
 * The strategy owning an algo order the venue placed on a strategy's behalf (a take-profit or
 * stop-loss attachment): the owner of the order named by its `attachedOrderId`, else of the
 * parent its reference names.
 * @param algo - an algo order no strategy placed itself
 * @param lookups - the registry's lookups
 * @returns the parent's owner, or undefined when the algo order has no known parent
 */
export function inheritedAlgoOwner(algo: AlgoOrder, lookups: LineageLookups): string | undefined {
  const parent = algo.attachedOrderId ? lookups.orderById(algo.attachedOrderId) : undefined;
  return linkedOrNamedOwner(parent?.clientOrderId, algo.clientAlgoOrderId, lookups);
}

/** The owner of the parent the venue's link names (its reference), else of the one `ref` names. */
function linkedOrNamedOwner(
  parentRef: string | undefined,
  ref: string,
  lookups: LineageLookups,
): string | undefined {
  const owner = parentRef === undefined ? undefined : ownerOrInherited(parentRef, lookups, 0);
  return owner ?? inheritedOwner(ref, lookups);
}

/**
 * The owner a reference inherits from the parent it names (`<parent>-tp`, `-sl`, `-trig`, where
 * the parent is a reference or the venue's id of an order or algo order), through chains such as
 * `<entry>-sl-trig`. Nothing is recorded: the caller decides.
 * @param ref - a clientOrderId or clientAlgoOrderId
 * @param lookups - the registry's lookups
 * @returns the inherited owner, or undefined when the reference names no parent with an owner
 */
export function inheritedOwner(ref: string, lookups: LineageLookups): string | undefined {
  return inherited(ref, lookups, 0);
}

function inherited(ref: string, lookups: LineageLookups, depth: number): string | undefined {
  if (depth >= MAX_DEPTH) return undefined;
  const parent = parentRef(ref, lookups);
  if (parent === undefined) return undefined;
  return ownerOrInherited(parent, lookups, depth + 1) ?? ownerOfVenueId(parent, lookups, depth + 1);
}

function ownerOrInherited(ref: string, lookups: LineageLookups, depth: number): string | undefined {
  return lookups.recordedOwner(ref) ?? inherited(ref, lookups, depth);
}

/** A parent named by the venue's id rather than its reference (the venue's fallback names). */
function ownerOfVenueId(id: string, lookups: LineageLookups, depth: number): string | undefined {
  const order = lookups.orderById(id);
  if (order !== undefined) return ownerOrInherited(order.clientOrderId, lookups, depth);
  const algo = lookups.algoById(id);
  return algo === undefined ? undefined : ownerOrInherited(algo.clientAlgoOrderId, lookups, depth);
}

/**
 * The position close command an order's reference names: the command's own reference (a close of
 * one position) or `<close ref>-<n>` (a close of several).
 * @param ref - a clientOrderId
 * @param lookups - which references are close commands'
 * @returns the close command's reference, or undefined when the reference names none
 */
export function closeCommandNaming(ref: string, lookups: LineageLookups): string | undefined {
  if (lookups.isCloseRef(ref)) return ref;
  const close = NUMBERED.exec(ref)?.[1];
  return close !== undefined && lookups.isCloseRef(close) ? close : undefined;
}

/**
 * @param ref - a reference
 * @param lookups - which references are close commands'
 * @returns the reference without its venue-child suffix, or undefined when it has none
 */
function parentRef(ref: string, lookups: LineageLookups): string | undefined {
  for (const suffix of VENUE_CHILD_SUFFIXES) {
    if (ref.length > suffix.length && ref.endsWith(suffix)) return ref.slice(0, -suffix.length);
  }
  const close = NUMBERED.exec(ref)?.[1];
  return close !== undefined && lookups.isCloseRef(close) ? close : undefined;
}

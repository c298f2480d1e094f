import type { AlgoOrder, Order, PositionSide } from '../model/index.ts';
import { onlyReducesPosition } from '../model/index.ts';
import type { OpenOrderFilter } from '../risk/index.ts';
import type { OrderRegistry } from './order-registry.ts';

/**
 * Open (non-final) orders, in the order first seen.
 * @param orders - the order registry
 * @param strategyId - only this strategy's, when given
 * @returns the orders
 */
export function openOrdersOf(orders: OrderRegistry, strategyId?: string): Order[] {
  const result: Order[] = [];
  forEachOpenOrderOf(orders, strategyId, (order) => result.push(order));
  return result;
}

/**
 * Hands each open (non-final) order to `visit`, in the order first seen, without making a list:
 * the risk gate's exposure checks walk every open order per intent.
 * @param orders - the order registry
 * @param strategyId - only this strategy's, when given
 * @param visit - called once per order
 */
export function forEachOpenOrderOf(
  orders: OrderRegistry,
  strategyId: string | undefined,
  visit: (order: Order) => void,
): void {
  for (const [key, order] of orders.open) {
    if (strategyId === undefined || orders.ownerOf(key) === strategyId) visit(order);
  }
}

/**
 * How many orders are open, from the registry's indices (no walk over the open orders).
 * @param orders - the order registry
 * @param filter - only one strategy's, only one sym's, or both
 * @returns the count
 */
export function countOpenOrdersOf(orders: OrderRegistry, filter: OpenOrderFilter): number {
  const { strategyId, sym } = filter;
  if (sym === undefined) {
    return strategyId === undefined ? orders.open.size : (orders.openByOwner.get(strategyId)?.size ?? 0);
  }
  const onSym = orders.openBySym.get(sym);
  if (onSym === undefined || strategyId === undefined) return onSym?.size ?? 0;
  let count = 0;
  for (const ref of onSym) if (orders.ownerOf(ref) === strategyId) count++;
  return count;
}

/**
 * The open orders on one sym, in the order first seen on that sym, walking only that sym's orders.
 * A list rather than a generator: a strategy asks on every signal (`ctx.openOrders(sym)`), and a
 * generator object, then its copy into the list the context returns, cost more than the walk.
 * @param orders - the order registry
 * @param sym - the symbol
 * @param strategyId - only this strategy's, when given
 * @returns the orders, a new list
 */
export function openOrdersOnSym(orders: OrderRegistry, sym: string, strategyId?: string): Order[] {
  const result: Order[] = [];
  const onSym = orders.openBySym.get(sym);
  if (onSym === undefined) return result;
  for (const ref of onSym) {
    if (strategyId === undefined || orders.ownerOf(ref) === strategyId)
      result.push(orders.open.get(ref) as Order);
  }
  return result;
}

/**
 * How many algo orders are open (not triggered, cancelled or failed), the tp/sl legs attached to
 * one order counting as one (when one fires, the venue cancels the other: only one can put an
 * order on the book): all of them without a walk, one strategy's by a walk over the open algo
 * orders (rarely more than a few per strategy).
 * @param orders - the order registry
 * @param strategyId - only this strategy's, when given
 * @returns the count
 */
export function countOpenAlgoOrdersOf(orders: OrderRegistry, strategyId?: string): number {
  if (strategyId === undefined) return orders.openAlgo.size - orders.openSecondLegs;
  let count = 0;
  const parents = new Set<string>();
  for (const [ref, algo] of orders.openAlgo) {
    if (orders.ownerOf(ref) !== strategyId) continue;
    const parent = algo.attachedOrderId;
    if (parent === undefined || parent === '') count++;
    else if (!parents.has(parent)) {
      parents.add(parent);
      count++;
    }
  }
  return count;
}

/**
 * Hands each open algo order (not triggered, cancelled or failed) to `visit`, in the order first
 * seen, without making a list: the risk gate's position and exposure checks walk them per intent.
 * @param orders - the order registry
 * @param strategyId - only this strategy's, when given
 * @param visit - called once per algo order (each leg of a tp/sl pair apart)
 */
export function forEachOpenAlgoOrderOf(
  orders: OrderRegistry,
  strategyId: string | undefined,
  visit: (algo: AlgoOrder) => void,
): void {
  for (const [ref, algo] of orders.openAlgo) {
    if (strategyId === undefined || orders.ownerOf(ref) === strategyId) visit(algo);
  }
}

/**
 * Open algo orders, in the order first seen.
 * @param orders - the order registry
 * @param strategyId - only this strategy's, when given
 * @returns the algo orders
 */
export function openAlgoOrdersOf(orders: OrderRegistry, strategyId?: string): AlgoOrder[] {
  const result: AlgoOrder[] = [];
  for (const algo of orders.openAlgo.values()) {
    if (strategyId === undefined || orders.ownerOf(algo.clientAlgoOrderId) === strategyId) result.push(algo);
  }
  return result;
}

/**
 * Whether an order or algo order the kernel holds open on a leg (placed and not answered yet
 * included) could open or grow it: one that does not only reduce a position
 * ({@link onlyReducesPosition}). A fill of such an order may reach the venue's leg before a close
 * sent now does (see `InFlightCloses`).
 * @param orders - the order registry
 * @param sym - the symbol
 * @param positionSide - the leg
 * @returns true when one could
 */
export function legMayGrow(orders: OrderRegistry, sym: string, positionSide: PositionSide): boolean {
  const grows = (order: Order | AlgoOrder) =>
    order.sym === sym && order.positionSide === positionSide && !onlyReducesPosition(order);
  for (const ref of orders.openBySym.get(sym) ?? []) {
    const order = orders.open.get(ref);
    if (order !== undefined && grows(order)) return true;
  }
  for (const algo of orders.openAlgo.values()) if (grows(algo)) return true;
  return false;
}

import type { Execution, PositionSide } from '../model/index.ts';
import type { OrderRegistry } from './order-registry.ts';

/**
 * The position side of the order a fill names (by clientOrderId, else by orderId), while the
 * registry remembers it.
 * @param orders - the kernel's orders, Keel's in-flight placeholders included
 * @param execution - the fill
 * @returns the order's position side, or undefined when the order is not known
 */
export function orderLegOf(orders: OrderRegistry, execution: Execution): PositionSide | undefined {
  const order =
    (execution.clientOrderId === '' ? undefined : orders.byRef.get(execution.clientOrderId)) ??
    (execution.orderId === '' ? undefined : orders.byId.get(execution.orderId));
  return order?.positionSide;
}

/**
 * A fill on the leg of the order it names. The venue's executions carry no positionSide (the spec
 * gives one to orders and positions only), so the mapping reads a fill without one as NONE; a fill
 * of a LONG or SHORT order (BOTH mode) belongs to that order's leg, or its PnL and quantity would
 * be merged into the NONE leg. A fill that says LONG or SHORT is kept as it is.
 * @param orders - the kernel's orders
 * @param execution - the fill as the venue reported it
 * @returns the fill itself, or a copy on its order's leg when it said NONE and its order is LONG or SHORT
 */
export function fillOnOrderLeg(orders: OrderRegistry, execution: Execution): Execution {
  if (execution.positionSide !== 'NONE') return execution;
  const leg = orderLegOf(orders, execution);
  return leg === undefined || leg === 'NONE' ? execution : { ...execution, positionSide: leg };
}

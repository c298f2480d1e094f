import type { Kernel } from './kernel.ts';
import { UnprotectiveOrders } from './unprotective-orders.ts';

/**
 * The protective orders of some strategies' open positions that a sweep of the `unprotective`
 * scope keeps ({@link UnprotectiveOrders}: reduce-only, a hedge leg's closing order, a
 * take-profit / stop-loss algo order, on a leg open on the side it reduces), and the reduce-only
 * trailing stops the kernel holds for such a leg (no sweep cancels an emulated stop, and its order
 * fires through a halt): what a kill switch's trip to HALTED leaves working, for its warning.
 * Orders a cancel of Keel's own is on its way for are not listed.
 * @param kernel - the run's kernel
 * @param strategyIds - whose orders
 * @returns their references, open orders first, then algo orders (those sent and not answered
 *   yet included), then trailing stops as `<ref> (trailing stop)`
 */
export function keptProtectiveOrders(kernel: Kernel, strategyIds: readonly string[]): string[] {
  const judge = new UnprotectiveOrders((sym, leg) => kernel.state.positionQty(sym, leg));
  const owners = new Set(strategyIds);
  return [
    ...strategyIds.flatMap((id) =>
      kernel.state
        .openOrders(id)
        .filter((o) => !(o.orderState === 'PENDING_CANCEL' && kernel.keelCancelInFlight(o.clientOrderId)))
        .filter((o) => !judge.order(o))
        .map((o) => o.clientOrderId),
    ),
    ...strategyIds.flatMap((id) => [
      ...kernel.state
        .openAlgoOrders(id)
        .filter((a) => !judge.algoOrder(a))
        .map((a) => a.clientAlgoOrderId),
      ...kernel
        .algoOrdersInFlight(id)
        .filter((a) => !judge.algoOrder(a.intent))
        .map((a) => a.ref),
    ]),
    ...kernel
      .openTrailingStops()
      .filter((stop) => owners.has(stop.strategyId) && !judge.order(stop))
      .map((stop) => `${stop.ref} (trailing stop)`),
  ];
}

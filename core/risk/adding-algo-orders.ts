import type { Dec, OrderSide, PositionSide } from '../model/index.ts';
import { onlyReducesPosition } from '../model/index.ts';
import { largestAlgoQty, stricterAlgoPrice } from './order-terms.ts';
import type { RestingAlgoOrder, RiskView } from './risk-view.ts';

/**
 * An algo order not triggered yet that can add to a position, as the position and exposure
 * limits count it: as the order its trigger sends, if it fired.
 */
export interface AddingAlgoOrder {
  readonly sym: string;
  readonly side: OrderSide;
  readonly positionSide: PositionSide;
  /** The qty its order has: the largest of its own and the replaces in flight on it. */
  readonly qty: Dec;
  /**
   * Its order's limit price, zero for a market order (valued at the reference price): with
   * replaces in flight on it, the one that makes the notional largest.
   */
  readonly price: Dec;
}

/**
 * The reference of an algo order that may still put an order on the book.
 * @param algo - one the venue holds, or one sent and not answered yet
 * @returns its clientAlgoOrderId
 */
export function restingAlgoRef(algo: RestingAlgoOrder): string {
  return 'clientAlgoOrderId' in algo ? algo.clientAlgoOrderId : algo.ref;
}

/**
 * Hands each algo order not triggered yet (sent and not answered yet included) that can add to a
 * position to `visit`, with the terms of the order it sends. Left out: those that only reduce a
 * position (reduce-only, or closing a hedge leg: exits), the take-profit and stop-loss attached to
 * an order (exits of the position it opens), and the algo order a replacement replaces (it counts
 * with the replacement's terms).
 * @param view - the state
 * @param owner - only this strategy's; undefined = every strategy's
 * @param replaced - the clientAlgoOrderId of the algo order being replaced, if any
 * @param visit - called once per algo order counted
 */
export function forEachAddingAlgoOrder(
  view: RiskView,
  owner: string | undefined,
  replaced: string | undefined,
  visit: (algo: AddingAlgoOrder) => void,
): void {
  view.forEachOpenAlgoOrder(owner, (algo) => {
    if (onlyReducesPosition(algo)) return;
    const acknowledged = 'clientAlgoOrderId' in algo;
    if (acknowledged && algo.attachedOrderId !== undefined && algo.attachedOrderId !== '') return;
    const ref = restingAlgoRef(algo);
    if (ref === replaced) return;
    // A sent algo order already has the replaces sent on it merged in.
    const replaces = acknowledged ? view.inFlightAlgoReplaces(ref) : [];
    if (replaces.length === 0) {
      visit(algo);
      return;
    }
    visit({
      sym: algo.sym,
      side: algo.side,
      positionSide: algo.positionSide,
      qty: largestAlgoQty(algo.qty, replaces),
      price: stricterAlgoPrice(algo, replaces, view),
    });
  });
}

import type { AlgoOrder, Dec, Order, PlaceAlgoOrderIntent, PositionSide } from '../model/index.ts';
import { onlyReducesPosition } from '../model/index.ts';
import { isProtectiveAlgoOrder, tradesAgainst } from './protective-orders.ts';

/**
 * Tells which of the resting orders and algo orders a fault's sweep goes through could open or add
 * exposure once no strategy manages them (Keel's choice): all but the protective ones
 * ({@link onlyReducesPosition}, {@link isProtectiveAlgoOrder}: reduce-only, a hedge leg's closing
 * order, a take-profit / stop-loss such as an entry's tp / sl attachments) of a position that is
 * open on the side they reduce. So a halted strategy's open position keeps its stop-loss, while its
 * entries, its plain orders and the protective orders of a flat leg (nothing left to protect) go.
 */
export class UnprotectiveOrders {
  /**
   * @param positionQty - the signed quantity of a position leg now
   */
  constructor(private readonly positionQty: (sym: string, positionSide: PositionSide) => Dec) {}

  /**
   * @param order - a resting order (or one on its way to the venue)
   * @returns true when it is to be cancelled: it does not protect an open position
   */
  order(order: Pick<Order, 'sym' | 'side' | 'positionSide' | 'reduceOnly'>): boolean {
    return !(onlyReducesPosition(order) && this.#protectsOpenLeg(order));
  }

  /**
   * @param algo - an open algo order, or one sent and not answered yet
   * @returns true when it is to be cancelled: the order its trigger sends does not protect an open position
   */
  algoOrder(algo: AlgoOrder | PlaceAlgoOrderIntent): boolean {
    return !(isProtectiveAlgoOrder(algo) && this.#protectsOpenLeg(algo));
  }

  #protectsOpenLeg(order: Pick<Order, 'sym' | 'side' | 'positionSide'>): boolean {
    return tradesAgainst(this.positionQty(order.sym, order.positionSide), order.side);
  }
}

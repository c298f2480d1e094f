import type { AlgoOrder, Dec, Order, OrderSide, PlaceAlgoOrderIntent, PositionSide } from '../model/index.ts';
import { closesHedgeLeg } from '../model/index.ts';

/** What judging an order or algo order reads: its leg, side, size left and whether it only protects. */
interface SweptTerms {
  readonly sym: string;
  readonly side: OrderSide;
  readonly positionSide: PositionSide;
  /** The quantity left to fill; undefined when not known (a quote-sized order not sized yet). */
  readonly left: Dec | undefined;
  /** Reduce-only, a hedge leg's closing order, or a take-profit / stop-loss algo order. */
  readonly protective: boolean;
}

/**
 * Tells which of the resting orders and algo orders a sweep goes through would add risk if they
 * filled or fired, as a trip to REDUCING judges them (Keel's choice): a reduce-only order, a hedge
 * leg's closing order and a take-profit / stop-loss algo order never do; any other order does
 * unless it trades against the position on its leg and fits in it on its own. Orders against a
 * position are alternatives, as `maxPositionQty` counts them (a bracket's take-profit limit and
 * stop-loss trigger each close the same position, one of them fills): each is judged against the
 * whole position, so both exits of a bracket are kept. A quote-sized order whose size is not known
 * yet adds risk.
 */
export class RiskAddingOrders {
  /**
   * @param positionQty - the signed quantity of a position leg now
   */
  constructor(private readonly positionQty: (sym: string, positionSide: PositionSide) => Dec) {}

  /**
   * @param order - a resting order (or one on its way to the venue)
   * @returns true when it would add risk
   */
  order(order: Order): boolean {
    const unsized = order.orderQty.isZero() && order.quoteOrderQty?.gt(0) === true;
    return this.#addsRisk({
      sym: order.sym,
      side: order.side,
      positionSide: order.positionSide,
      left: unsized ? undefined : order.orderQty.sub(order.executedQty),
      protective: order.reduceOnly || closesHedgeLeg(order),
    });
  }

  /**
   * @param algo - an open algo order, or one sent and not answered yet
   * @returns true when the order its trigger sends would add risk
   */
  algoOrder(algo: AlgoOrder | PlaceAlgoOrderIntent): boolean {
    return this.#addsRisk({
      sym: algo.sym,
      side: algo.side,
      positionSide: algo.positionSide,
      left: algo.qty,
      protective: algo.reduceOnly || algo.algoOrderType === 'TP_SL' || closesHedgeLeg(algo),
    });
  }

  #addsRisk(terms: SweptTerms): boolean {
    if (terms.protective) return false;
    if (terms.left === undefined) return true;
    const position = this.positionQty(terms.sym, terms.positionSide);
    const against = terms.side === 'BUY' ? position.isNegative() : position.isPositive();
    return !against || terms.left.greaterThan(position.abs());
  }
}

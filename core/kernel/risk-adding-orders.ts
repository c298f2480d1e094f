import type { AlgoOrder, Dec, Order, OrderSide, PlaceAlgoOrderIntent, PositionSide } from '../model/index.ts';
import { onlyReducesPosition } from '../model/index.ts';
import { isProtectiveAlgoOrder, tradesAgainst } from './protective-orders.ts';

/** What judging an order or algo order reads: its leg, side, size left and whether it only protects. */
interface SweptTerms {
  readonly sym: string;
  readonly side: OrderSide;
  readonly positionSide: PositionSide;
  /** The quantity left to fill; undefined when not known (a quote-sized order not sized yet). */
  readonly left: Dec | undefined;
  /** Reduce-only, a hedge leg's closing order, or a take-profit / stop-loss algo order. */
  readonly protective: boolean;
  /** A plain order or an algo order: the two kinds are alternatives, each with its own room. */
  readonly kind: 'order' | 'algo';
}

/**
 * Tells which of the resting orders and algo orders a sweep goes through would add risk if they
 * filled or fired, as a trip to REDUCING judges them (Keel's choice): a reduce-only order, a hedge
 * leg's closing order and a take-profit / stop-loss algo order never do; any other order does
 * unless it trades against the position on its leg and fits in what the ones of its kind kept
 * before it on that leg left of it. Plain orders and algo orders are two kinds, each with the
 * whole position as room: a bracket's take-profit limit and stop-loss trigger are alternatives
 * (each closes the same position), so both are kept, while a ladder of sells that each fit a long
 * position alone is not all kept (the first that fit use the position up, so the ladder cannot
 * take the position past flat). A quote-sized order whose size is not known yet adds risk.
 * Judge the orders in the order they should be kept: every one judged counts.
 */
export class RiskAddingOrders {
  /** Per `sym|positionSide|kind`: |position| not yet claimed by the orders of that kind kept against it. */
  readonly #room = new Map<string, Dec>();

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
      protective: onlyReducesPosition(order),
      kind: 'order',
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
      protective: isProtectiveAlgoOrder(algo),
      kind: 'algo',
    });
  }

  #addsRisk(terms: SweptTerms): boolean {
    if (terms.protective) return false;
    if (terms.left === undefined) return true;
    const position = this.positionQty(terms.sym, terms.positionSide);
    if (!tradesAgainst(position, terms.side)) return true;
    const key = `${terms.sym}|${terms.positionSide}|${terms.kind}`;
    const room = this.#room.get(key) ?? position.abs();
    if (terms.left.greaterThan(room)) return true;
    this.#room.set(key, room.sub(terms.left));
    return false;
  }
}

import type { Dec, LiquidationPositionSnapshot, PositionSide } from '../../core/model/index.ts';
import { D, ZERO } from '../../core/model/index.ts';
import { executeFill } from './fills.ts';
import { freeOrderRef } from './generated-refs.ts';
import type { LoanTrade } from './loan-liquidation.ts';
import { liqPriceOf, markOf, positionKeyFor } from './margin.ts';
import { createOrder, marketCloseOf } from './order-factory.ts';
import { publishOrder } from './publish.ts';
import type { SimOrder } from './sim-order.ts';
import { reducibleQty, type SimPosition } from './sim-position.ts';
import { emit, type SimState } from './sim-state.ts';
import { isAssetSettledSym } from './spot-holdings.ts';

/** A liquidation order placed, with the position it works on as it stood then and its fill price. */
export interface LiquidationOrder {
  readonly order: SimOrder;
  readonly snapshot: LiquidationPositionSnapshot;
  readonly price: Dec;
}

/**
 * A position (or spot holding) as it stands now, for the liquidation's records. A spot holding
 * shows liqPrice 0, as on the Positions channel: it carries no margin of its own.
 * @param state - the venue
 * @param position - the position or holding
 * @returns its snapshot
 */
export function snapshotOf(state: SimState, position: SimPosition): LiquidationPositionSnapshot {
  return {
    sym: position.sym,
    positionSide: position.positionSide,
    positionQty: position.qty,
    avgPrice: position.avgPrice,
    markPrice: markOf(state, position),
    liqPrice: isAssetSettledSym(state, position.sym) ? ZERO : liqPriceOf(state, position),
  };
}

/**
 * Places the order that closes a margin position at market (reduce-only, the whole quantity),
 * filled at the position's mark.
 * @param state - the venue
 * @param liquidationEventId - the liquidation
 * @param position - the position
 * @param index - its number among the liquidation's orders, for a fallback reference
 * @returns the order placed
 */
export function placeClose(
  state: SimState,
  liquidationEventId: string,
  position: SimPosition,
  index: number,
): LiquidationOrder {
  const snapshot = snapshotOf(state, position);
  const ref = `${liquidationEventId}-${position.sym}-${position.positionSide}`;
  const order = createOrder(state, {
    ...marketCloseOf(
      position,
      freeOrderRef(state, ref, () => `${liquidationEventId}-${index}`),
    ),
    liquidation: true,
  });
  publishOrder(state, order, 'PLACE');
  return { order, snapshot, price: markOf(state, position) };
}

/**
 * The position sides a spot trade of the liquidation books on: NONE in NET mode; in BOTH mode the
 * leg it reduces first (a BUY the SHORT leg, a SELL the LONG one), the rest on the other leg, as a
 * user's reduce and open orders would.
 */
function legsOf(state: SimState, trade: LoanTrade): [PositionSide, Dec][] {
  if (state.positionMode === 'NET') return [['NONE', trade.qty]];
  const reducing: PositionSide = trade.side === 'BUY' ? 'SHORT' : 'LONG';
  const opening: PositionSide = reducing === 'SHORT' ? 'LONG' : 'SHORT';
  const holding = state.holdings.get(positionKeyFor(state, trade.spec.sym, reducing));
  const first = D.min(reducibleQty(holding?.qty ?? ZERO, trade.side), trade.qty);
  const legs: [PositionSide, Dec][] = [];
  if (first.gt(0)) legs.push([reducing, first]);
  if (trade.qty.gt(first)) legs.push([opening, trade.qty.minus(first)]);
  return legs;
}

/**
 * Places the market orders of a spot trade that raises a loan's coin (`loan-liquidation.ts`), one
 * per position side it books on, filled at the trade's price (the mark). They are not reduce-only:
 * the holding a spot sym reports leaves out the coins the portfolio started with.
 * @param state - the venue
 * @param liquidationEventId - the liquidation
 * @param trade - the planned trade
 * @param index - the number of the liquidation's first order, for fallback references
 * @returns the orders placed
 */
export function placeLoanTrade(
  state: SimState,
  liquidationEventId: string,
  trade: LoanTrade,
  index: number,
): LiquidationOrder[] {
  return legsOf(state, trade).map(([positionSide, qty], leg) => {
    const key = positionKeyFor(state, trade.spec.sym, positionSide);
    const holding = state.holdings.get(key);
    const snapshot = holding
      ? snapshotOf(state, holding)
      : {
          sym: trade.spec.sym,
          positionSide,
          positionQty: ZERO,
          avgPrice: ZERO,
          markPrice: trade.price,
          liqPrice: ZERO,
        };
    const ref = `${liquidationEventId}-${trade.spec.sym}-${positionSide}`;
    const order = createOrder(state, {
      clientOrderId: freeOrderRef(state, ref, () => `${liquidationEventId}-${index + leg}`),
      sym: trade.spec.sym,
      side: trade.side,
      orderType: 'MARKET',
      timeInForce: 'IOC',
      qty,
      price: ZERO,
      reduceOnly: false,
      positionSide,
      liquidation: true,
    });
    publishOrder(state, order, 'PLACE');
    return { order, snapshot, price: trade.price };
  });
}

/**
 * Fills a liquidation order in full at its price (the liquidation fee instead of a trading fee,
 * see `fills.ts`) and archives it as a LiquidationPosition record, sent on the portfolio's and the
 * main account's (byUser) channels.
 * @param state - the venue
 * @param liquidationEventId - the liquidation
 * @param placed - the order placed
 */
export function fillLiquidationOrder(
  state: SimState,
  liquidationEventId: string,
  placed: LiquidationOrder,
): void {
  const { order, snapshot, price } = placed;
  const feeBefore = order.fee;
  executeFill(state, order, order.qty, price, 'TAKER');
  const record = {
    liquidationEventId,
    portfolioId: state.opts.portfolioId,
    orderId: order.orderId,
    sym: order.sym,
    side: order.side,
    quantity: order.filled,
    price,
    liquidationFee: order.fee.minus(feeBefore),
    position: snapshot,
    timestamp: state.now,
  };
  emit(state, { kind: 'liquidationPosition', byUser: false, record });
  emit(state, { kind: 'liquidationPosition', byUser: true, record });
}

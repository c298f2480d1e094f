import type {
  Dec,
  LiquidationEventType,
  LiquidationNodeType,
  LiquidationPositionSnapshot,
} from '../../core/model/index.ts';
import { ZERO } from '../../core/model/index.ts';
import { cancelAlgo } from './algo-orders.ts';
import { executeFill, finishOrder } from './fills.ts';
import { freeOrderRef } from './generated-refs.ts';
import { equityOf, liqPriceOf, maintenanceMargin, markOf, unrealizedPnl } from './margin.ts';
import { createOrder, isLive, marketCloseOf } from './order-factory.ts';
import { publishBalances, publishOrder } from './publish.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimPosition } from './sim-position.ts';
import { emit, nextId, type SimState } from './sim-state.ts';

function snapshotOf(state: SimState, position: SimPosition): LiquidationPositionSnapshot {
  return {
    sym: position.sym,
    positionSide: position.positionSide,
    positionQty: position.qty,
    avgPrice: position.avgPrice,
    markPrice: markOf(state, position),
    liqPrice: liqPriceOf(state, position),
  };
}

function openPositions(state: SimState): SimPosition[] {
  return [...state.positions.values()].filter((p) => !p.qty.isZero());
}

/**
 * Chooses what to liquidate: positions by maintenance margin, largest first, until the rest is
 * covered by equity after the liquidation fees (closing at mark changes equity only by the fee).
 */
function chooseVictims(state: SimState, positions: readonly SimPosition[]): SimPosition[] {
  const ranked = positions
    .map((position) => {
      const spec = state.opts.instruments.get(position.sym);
      const notional = position.qty
        .abs()
        .mul(spec?.contractSize ?? 1)
        .mul(markOf(state, position));
      return {
        position,
        mm: notional.mul(state.opts.mmrOf(position.sym)),
        fee: notional.mul(spec?.liquidationFee ?? ZERO),
      };
    })
    .sort((a, b) => b.mm.comparedTo(a.mm));
  let equity = equityOf(state);
  let mm = maintenanceMargin(state);
  const victims: SimPosition[] = [];
  for (const { position, mm: positionMM, fee } of ranked) {
    if (equity.gte(mm) && victims.length > 0) break;
    victims.push(position);
    equity = equity.minus(fee);
    mm = mm.minus(positionMM);
  }
  return victims;
}

/**
 * Runs the venue's liquidation process when equity has fallen below maintenance margin. Node by
 * node (Keel's names, core/model LIQUIDATION_NODE_TYPES) it reports a LiquidationEvent snapshot:
 * TRIGGERED, ORDERS_CANCELLED, ALGO_ORDERS_CANCELLED, LOANS_FROZEN, POSITIONS_TAKEN_OVER,
 * LIQUIDATION_ORDERS_PLACED, LIQUIDATION_ORDERS_FILLED, ADL_EXECUTED, FINISHED. Liquidation orders
 * fill at the mark price and pay the instrument's liquidation fee instead of a trading fee; each
 * archived one is a LiquidationPosition record, sent on both the portfolio's and the main
 * account's (byUser) channels. The simulated market has no counterparties to deleverage: the
 * ADL_EXECUTED node reports the ranks but executes nothing, and a negative equity left after
 * liquidation stays on the account (no insurance fund; Keel's choice, the conservative one).
 * @param state - the venue
 * @returns true when a liquidation ran
 */
export function liquidateIfBelowMaintenance(state: SimState): boolean {
  if (state.liquidating) return false;
  const positions = openPositions(state);
  if (positions.length === 0) return false;
  const equityBefore = equityOf(state);
  if (equityBefore.gte(maintenanceMargin(state))) return false;
  state.liquidating = true;
  const liquidationEventId = nextId(state, 'L');
  const victims = chooseVictims(state, positions);
  const eventType: LiquidationEventType =
    victims.length === positions.length ? 'FULL_LIQUIDATION' : 'PARTIAL_LIQUIDATION';
  const node = (nodeType: LiquidationNodeType, shown: readonly SimPosition[]) =>
    emit(state, {
      kind: 'liquidationEvent',
      record: {
        liquidationEventId,
        portfolioId: state.opts.portfolioId,
        eventType,
        nodeType,
        equity: equityOf(state),
        maintainMargin: maintenanceMargin(state),
        positions: shown.map((p) => snapshotOf(state, p)),
        timestamp: state.now,
      },
    });
  node('TRIGGERED', positions);
  publishBalances(state, []);
  for (const order of [...state.liveOrders]) {
    if (isLive(order)) finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', 'LIQUIDATION');
  }
  node('ORDERS_CANCELLED', positions);
  for (const algo of [...state.algos.values()]) cancelAlgo(state, algo);
  node('ALGO_ORDERS_CANCELLED', positions);
  node('LOANS_FROZEN', positions);
  node('POSITIONS_TAKEN_OVER', victims);
  const orders: [SimPosition, SimOrder, LiquidationPositionSnapshot][] = victims.map((position, index) => {
    const snapshot = snapshotOf(state, position);
    const ref = `${liquidationEventId}-${position.sym}-${position.positionSide}`;
    const order = createOrder(state, {
      ...marketCloseOf(
        position,
        freeOrderRef(state, ref, () => `${liquidationEventId}-${index + 1}`),
      ),
      liquidation: true,
    });
    publishOrder(state, order, 'PLACE');
    return [position, order, snapshot];
  });
  node('LIQUIDATION_ORDERS_PLACED', victims);
  for (const [position, order, snapshot] of orders) {
    const price: Dec = markOf(state, position);
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
  node('LIQUIDATION_ORDERS_FILLED', victims);
  node('ADL_EXECUTED', openPositions(state));
  state.liquidating = false;
  node('FINISHED', openPositions(state));
  publishBalances(state, []);
  return true;
}

/**
 * Unrealized PnL of all open positions (used by reports and checks).
 * @param state - the venue
 * @returns the sum in settle-asset units
 */
export function totalUnrealizedPnl(state: SimState): Dec {
  return openPositions(state).reduce((sum, p) => sum.plus(unrealizedPnl(state, p)), ZERO);
}

import type { Dec, LiquidationEventType, LiquidationNodeType } from '../../core/model/index.ts';
import { ZERO } from '../../core/model/index.ts';
import { cancelAlgo } from './algo-orders.ts';
import { noteVenueWork } from './early-span-work.ts';
import { finishOrder } from './fills.ts';
import { republishMovedLiqPrices } from './liq-price-watch.ts';
import {
  fillLiquidationOrder,
  type LiquidationOrder,
  placeClose,
  placeLoanTrade,
  snapshotOf,
} from './liquidation-orders.ts';
import { chooseVictims } from './liquidation-victims.ts';
import { repayInLiquidation } from './loans.ts';
import { equityOf, maintenanceMargin, unrealizedPnl } from './margin.ts';
import { isLive } from './order-factory.ts';
import { publishBalances } from './publish.ts';
import type { SimPosition } from './sim-position.ts';
import { emit, nextId, type SimState } from './sim-state.ts';

function openPositions(state: SimState): SimPosition[] {
  return [...state.positions.values()].filter((p) => !p.qty.isZero());
}

/** The open spot holdings of the given syms (those the loan repayments trade). */
function holdingsOn(state: SimState, syms: ReadonlySet<string>): SimPosition[] {
  if (syms.size === 0) return [];
  return [...state.holdings.values()].filter((h) => syms.has(h.sym) && !h.qty.isZero());
}

/** The open margin positions, then the open spot holdings of the given syms. */
function openPositionsAndHoldings(state: SimState, syms: ReadonlySet<string>): SimPosition[] {
  return [...openPositions(state), ...holdingsOn(state, syms)];
}

/**
 * Runs the venue's liquidation process when equity has fallen below maintenance margin (margin
 * positions' and loans'). Node by node (Keel's names, core/model LIQUIDATION_NODE_TYPES) it
 * reports a LiquidationEvent snapshot: TRIGGERED, ORDERS_CANCELLED, ALGO_ORDERS_CANCELLED,
 * LOANS_FROZEN (borrow and repay commands are refused with 406021 until it ends),
 * POSITIONS_TAKEN_OVER, LIQUIDATION_ORDERS_PLACED, LIQUIDATION_ORDERS_FILLED, ADL_EXECUTED,
 * FINISHED. It takes over margin positions and loans, largest maintenance margin first, until the
 * rest is covered (`liquidation-victims.ts`): the positions are closed at their marks, then each
 * loan is repaid, its coin bought back or raised by selling coins held, at the mark
 * (`loan-liquidation.ts`). Liquidation orders pay the instrument's liquidation fee instead of a
 * trading fee; each archived one is a LiquidationPosition record, sent on both the portfolio's and
 * the main account's (byUser) channels. The simulated market has no counterparties to
 * deleverage: the ADL_EXECUTED node reports the ranks but executes nothing, and a negative equity
 * left after liquidation stays on the account (no insurance fund; Keel's choice, the conservative
 * one).
 * @param state - the venue
 * @returns true when a liquidation ran
 */
export function liquidateIfBelowMaintenance(state: SimState): boolean {
  if (state.liquidating) return false;
  const positions = openPositions(state);
  if (positions.length === 0 && state.loans.size === 0) return false;
  if (equityOf(state).gte(maintenanceMargin(state))) return false;
  state.liquidating = true;
  noteVenueWork(state, state.now, undefined, 'a liquidation', true);
  const liquidationEventId = nextId(state, 'L');
  const victims = chooseVictims(state, positions);
  const eventType: LiquidationEventType = victims.full ? 'FULL_LIQUIDATION' : 'PARTIAL_LIQUIDATION';
  const traded = new Set(victims.repayments.flatMap((r) => r.trades.map((t) => t.spec.sym)));
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
  const everything = openPositionsAndHoldings(state, traded);
  node('TRIGGERED', everything);
  publishBalances(state, []);
  for (const order of [...state.liveOrders]) {
    if (isLive(order)) finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', 'LIQUIDATION');
  }
  node('ORDERS_CANCELLED', everything);
  for (const algo of [...state.algos.values()]) cancelAlgo(state, algo);
  node('ALGO_ORDERS_CANCELLED', everything);
  node('LOANS_FROZEN', everything);
  const taken = [...victims.positions, ...holdingsOn(state, traded)];
  node('POSITIONS_TAKEN_OVER', taken);
  const orders: LiquidationOrder[] = victims.positions.map((position, index) =>
    placeClose(state, liquidationEventId, position, index + 1),
  );
  for (const { trades } of victims.repayments) {
    for (const trade of trades)
      orders.push(...placeLoanTrade(state, liquidationEventId, trade, orders.length + 1));
  }
  node('LIQUIDATION_ORDERS_PLACED', taken);
  for (const placed of orders) fillLiquidationOrder(state, liquidationEventId, placed);
  if (victims.repayments.length > 0) {
    for (const { loan } of victims.repayments) repayInLiquidation(state, loan);
    // A repayment moves no equity but frees maintenance margin: the positions left see it in their liqPrice.
    const equity = equityOf(state);
    republishMovedLiqPrices(state, equity);
    publishBalances(state, [...new Set(victims.repayments.map((r) => r.loan.coin))], equity);
  }
  node('LIQUIDATION_ORDERS_FILLED', taken);
  node('ADL_EXECUTED', openPositionsAndHoldings(state, traded));
  state.liquidating = false;
  node('FINISHED', openPositionsAndHoldings(state, traded));
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

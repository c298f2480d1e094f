import type { AlgoOrder, Dec, OrderAction } from '../../core/model/index.ts';
import { asNumber } from '../../core/model/index.ts';
import { adlRankOf } from './adl-rank.ts';
import { keepFinalView } from './final-order-retention.ts';
import { initialMarginLater } from './initial-margin.ts';
import { equityOf, markOf } from './margin.ts';
import { accountView, assetView, positionView } from './portfolio-views.ts';
import { orderView, type SimOrder } from './sim-order.ts';
import type { SimPosition } from './sim-position.ts';
import type { SimAlgo, SimState } from './sim-state.ts';
import { emit } from './sim-state.ts';

/**
 * Sends an order's new state on the Orders channel.
 * @param state - the venue
 * @param order - the order, already updated
 * @param action - what happened
 * @param at - when it happened (default: now)
 */
export function publishOrder(state: SimState, order: SimOrder, action: OrderAction, at = state.now): void {
  order.action = action;
  order.updateAt = at;
  const view = orderView(order, state.opts.portfolioId);
  keepFinalView(state, order, view);
  emit(state, { kind: 'order', order: view });
}

/**
 * Sends a position on the Positions channel, and its ADL rank when that changed.
 * @param state - the venue
 * @param position - the position, already updated
 * @param equity - the portfolio equity when the caller has it already (same state)
 */
export function publishPosition(state: SimState, position: SimPosition, equity: Dec = equityOf(state)): void {
  position.updateAt = state.now;
  const rank = adlRankOf(state, position, asNumber(equity));
  const view = positionView(state, position, equity, rank);
  position.published = view;
  position.publishedLiqN = undefined;
  emit(state, { kind: 'position', position: view });
  if (rank !== position.adlRank) {
    position.adlRank = rank;
    emit(state, {
      kind: 'adlRank',
      sym: position.sym,
      positionId: view.positionId,
      positionSide: position.positionSide,
      rank,
    });
  }
}

/**
 * Sends every open position and spot holding not yet sent at this instant at its sym's mark now,
 * ahead of an account report (Keel's choice): the account's equity holds each leg at that mark,
 * and a client that reads the mark from the leg's report needs no market data to know it.
 * @param state - the venue
 * @param equity - the portfolio equity now
 */
export function publishOpenPositions(state: SimState, equity: Dec): void {
  for (const legs of [state.positions, state.holdings]) {
    for (const position of legs.values()) {
      if (position.qty.isZero()) continue;
      if (position.updateAt === state.now && position.published?.markPrice.eq(markOf(state, position)))
        continue;
      publishPosition(state, position, equity);
    }
  }
}

/**
 * Sends every open position not yet sent at its mark now ({@link publishOpenPositions}), the
 * balances of the given coins on the Assets channel and the account on the Accounts channel.
 * @param state - the venue
 * @param coins - coins whose balance changed
 * @param equity - the portfolio equity when the caller has it already (same state)
 */
export function publishBalances(
  state: SimState,
  coins: readonly string[],
  equity: Dec = equityOf(state),
): void {
  publishOpenPositions(state, equity);
  // Sending an event changes nothing in the venue (commands queue until their arrival time), so
  // one initial margin serves every view of this moment, worked out if one is read.
  const im = initialMarginLater(state);
  for (const coin of coins) emit(state, { kind: 'asset', asset: assetView(state, coin, im) });
  const account = accountView(state, equity, im);
  state.reportedStatus = account.accountStatus;
  emit(state, { kind: 'account', account });
}

/**
 * The venue's view of an algo order.
 * @param state - the venue
 * @param algo - the sim's record
 * @returns the AlgoOrder
 */
export function algoView(state: SimState, algo: SimAlgo): AlgoOrder {
  return {
    algoOrderId: algo.algoOrderId,
    clientAlgoOrderId: algo.clientAlgoOrderId,
    portfolioId: state.opts.portfolioId,
    sym: algo.sym,
    side: algo.side,
    algoOrderType: algo.algoOrderType,
    conditionType: algo.conditionType,
    triggerType: algo.triggerType,
    triggerPrice: algo.triggerPrice,
    price: algo.price,
    qty: algo.qty,
    reduceOnly: algo.reduceOnly,
    positionSide: algo.positionSide,
    state: algo.state,
    ...(algo.orderId ? { orderId: algo.orderId } : {}),
    ...(algo.attachedOrderId ? { attachedOrderId: algo.attachedOrderId } : {}),
    createAt: algo.createAt,
    updateAt: algo.updateAt,
  };
}

/**
 * Sends an algo order's new state.
 * @param state - the venue
 * @param algo - the algo order, already updated
 */
export function publishAlgo(state: SimState, algo: SimAlgo): void {
  algo.updateAt = state.now;
  emit(state, { kind: 'algoOrder', algoOrder: algoView(state, algo) });
}

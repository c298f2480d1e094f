import { type AlgoOrder, type AlgoOrderUpdateEvent, D } from '../../core/model/index.ts';

/**
 * Builds an open algo order as the venue reports it: a reduce-only SELL 1 BINANCE_PERP_BTC_USDT
 * trigger at 90 (LTE, last price, market on trigger). Override any field.
 * @param overrides - fields to replace
 * @returns the algo order
 */
export function anAlgoOrder(overrides: Partial<AlgoOrder> = {}): AlgoOrder {
  return {
    algoOrderId: 'A-1',
    clientAlgoOrderId: 'algo-1',
    portfolioId: 'p-1',
    sym: 'BINANCE_PERP_BTC_USDT',
    side: 'SELL',
    algoOrderType: 'TRIGGER',
    conditionType: 'LTE',
    triggerType: 'LastPrice',
    triggerPrice: D('90'),
    price: D('0'),
    qty: D('1'),
    reduceOnly: true,
    positionSide: 'NONE',
    state: 'NEW',
    createAt: 1_000,
    updateAt: 1_000,
    ...overrides,
  };
}

/**
 * An algo order update event.
 * @param algoOrder - the algo order
 * @param ts - event time (default the algo order's updateAt)
 * @returns the event
 */
export function anAlgoOrderUpdate(algoOrder: AlgoOrder, ts = algoOrder.updateAt): AlgoOrderUpdateEvent {
  return { kind: 'algoOrder', ts, recvTs: ts, algoOrder };
}

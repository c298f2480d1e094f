import { D, type Order } from '../../core/model/index.ts';

/**
 * Builds an open limit order: BUY 1 BINANCE_PERP_BTC_USDT at 100, nothing executed. Override any field.
 * @param overrides - fields to replace
 * @returns the order
 */
export function anOrder(overrides: Partial<Order> = {}): Order {
  return {
    orderId: 'o-1',
    clientOrderId: 'c-1',
    portfolioId: 'p-1',
    sym: 'BINANCE_PERP_BTC_USDT',
    side: 'BUY',
    orderType: 'LIMIT',
    timeInForce: 'GTC',
    orderState: 'OPEN',
    orderQty: D('1'),
    limitPrice: D('100'),
    executedQty: D('0'),
    executedAmount: D('0'),
    executedAvgPrice: D('0'),
    fee: D('0'),
    feeCoin: 'USDT',
    reduceOnly: false,
    positionSide: 'NONE',
    createAt: 1_000,
    updateAt: 1_000,
    ...overrides,
  };
}

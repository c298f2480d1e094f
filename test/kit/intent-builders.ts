import { D, type Intent, type PlaceOrderIntent, type StrategyIntent } from '../../core/model/index.ts';

/**
 * A limit BUY of 1 BINANCE_PERP_BTC_USDT at 100, GTC, NET mode. Override any field.
 * @param overrides - fields to replace
 * @returns the intent
 */
export function aLimitOrder(overrides: Partial<PlaceOrderIntent> = {}): PlaceOrderIntent {
  return {
    kind: 'placeOrder',
    ref: 'ref-1',
    sym: 'BINANCE_PERP_BTC_USDT',
    side: 'BUY',
    orderType: 'LIMIT',
    qty: D('1'),
    price: D('100'),
    timeInForce: 'GTC',
    reduceOnly: false,
    positionSide: 'NONE',
    ...overrides,
  };
}

/**
 * A market BUY of 1 BINANCE_PERP_BTC_USDT, no price. Override any field.
 * @param overrides - fields to replace
 * @returns the intent
 */
export function aMarketOrder(overrides: Partial<PlaceOrderIntent> = {}): PlaceOrderIntent {
  const { price: _price, ...limit } = aLimitOrder({ orderType: 'MARKET', timeInForce: 'IOC' });
  return { ...limit, ...overrides };
}

/**
 * Tags an intent with its strategy.
 * @param intent - the intent
 * @param strategyId - default "s1"
 * @returns the strategy intent
 */
export function from(intent: Intent, strategyId = 's1'): StrategyIntent {
  return { strategyId, intent };
}

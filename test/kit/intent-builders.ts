import {
  D,
  type Intent,
  type PlaceAlgoOrderIntent,
  type PlaceOrderIntent,
  type StrategyIntent,
} from '../../core/model/index.ts';

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
 * A reduce-only stop that sells 1 BINANCE_PERP_BTC_USDT at market (price 0) once the last price
 * falls to 90 or below, ref "sl", NET mode. Override any field.
 * @param overrides - fields to replace
 * @returns the intent
 */
export function aSellStop(overrides: Partial<PlaceAlgoOrderIntent> = {}): PlaceAlgoOrderIntent {
  return {
    kind: 'placeAlgoOrder',
    ref: 'sl',
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
    ...overrides,
  };
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

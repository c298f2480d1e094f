/**
 * Valid wire samples of every venue reply shape, in the venue's words. Used by the venue adapter
 * tests (decoding, fuzz mutations) and usable by the paper venue's tests.
 */
export const WIRE_ORDER = {
  orderId: 'o-1',
  clientOrderId: 'c-1',
  portfolioId: 'p-1',
  sym: 'BINANCE_PERP_BTC_USDT',
  side: 'BUY',
  orderType: 'LIMIT',
  orderState: 'OPEN',
  orderQty: '0.010',
  limitPrice: '60000.5',
  timeInForce: 'GTC',
  executedQty: '0',
  executedAmount: '0',
  executedAvgPrice: '0',
  fee: '0',
  feeCoin: 'USDT',
  reduceOnly: false,
  positionSide: 'NONE',
  tpTriggerPrice: '65000',
  tpTriggerType: 'MarkPrice',
  tpPrice: '0',
  action: 'PLACE',
  actionMsg: '',
  amendType: '',
  cancelType: '',
  createAt: 1_700_000_000_000,
  updateAt: 1_700_000_000_100,
  venueExtra: 'kept',
} as const;

export const WIRE_EXECUTION = {
  transactionId: 't-1',
  portfolioId: 'p-1',
  orderId: 'o-1',
  clientOrderId: 'c-1',
  sym: 'BINANCE_PERP_BTC_USDT',
  side: 'BUY',
  quantity: '0.004',
  price: '60000.5',
  fee: '0.12',
  feeCoin: 'USDT',
  rebate: '0',
  rpnl: '0',
  execType: 'MAKER',
  timestamp: 1_700_000_000_200,
} as const;

export const WIRE_POSITION = {
  positionId: 'pos-1',
  portfolioId: 'p-1',
  sym: 'BINANCE_PERP_BTC_USDT',
  positionSide: 'NONE',
  positionQty: '0.004',
  avgPrice: '60000.5',
  markPrice: '60010',
  positionValue: '240.04',
  positionMargin: '24',
  positionMM: '1.2',
  unrealizedPNL: '0.038',
  leverage: '10',
  liqPrice: '54000',
  createAt: 1_700_000_000_000,
  updateAt: 1_700_000_000_200,
} as const;

export const WIRE_ASSET = {
  coin: 'USDT',
  balance: '1000',
  available: '900',
  frozen: '100',
  equity: '1000',
  borrow: '0',
  upnl: '0.038',
} as const;
export const WIRE_ASSET_WITH_LOAN = {
  ...WIRE_ASSET,
  loan: '50',
  loanValue: '50',
  netEquity: '950',
  netEquityValue: '950',
  netMarginValue: '900',
} as const;
export const WIRE_ACCOUNT = {
  portfolioId: 'p-1',
  equity: '1000',
  availableMargin: '900',
  maintainMargin: '10',
  riskRatio: '0.01',
  accountStatus: 'NORMAL',
  positionMode: 'NET',
} as const;
export const WIRE_ALGO_ORDER = {
  algoOrderId: 'a-1',
  clientAlgoOrderId: 'ca-1',
  sym: 'BINANCE_PERP_BTC_USDT',
  side: 'SELL',
  algoOrderType: 'TRIGGER',
  conditionType: 'LTE',
  triggerType: 'MarkPrice',
  triggerPrice: '55000',
  price: '0',
  qty: '0.004',
  algoOrderState: 'NEW',
  createAt: 1_700_000_000_000,
} as const;
export const WIRE_LIQ_SNAPSHOT = {
  sym: 'BINANCE_PERP_BTC_USDT',
  positionSide: 'NONE',
  positionQty: '0.004',
  avgPrice: '60000',
  markPrice: '50000',
  liqPrice: '51000',
} as const;
export const WIRE_LIQ_EVENT = {
  liquidationEventId: 'l-1',
  portfolioId: 'p-1',
  eventType: 'PARTIAL_LIQUIDATION',
  nodeType: 'TRIGGERED',
  equity: '100',
  maintainMargin: '120',
  positions: [WIRE_LIQ_SNAPSHOT],
  timestamp: 1_700_000_000_300,
} as const;
export const WIRE_LIQ_POSITION = {
  liquidationEventId: 'l-1',
  portfolioId: 'p-1',
  orderId: 'lo-1',
  sym: 'BINANCE_PERP_BTC_USDT',
  side: 'SELL',
  quantity: '0.004',
  price: '50000',
  liquidationFee: '1',
  position: WIRE_LIQ_SNAPSHOT,
  timestamp: 1_700_000_000_400,
} as const;

/**
 * Wraps a list in the venue's page shape.
 * @param list - entries
 * @param totalSize - total over all pages
 * @returns the page
 */
export function page<T>(list: readonly T[], totalSize = list.length, pageNo = 1, pageSize = 100) {
  return { page: pageNo, pageSize, totalSize, list };
}

/**
 * The spec's success envelope around data.
 * @param data - payload
 * @returns `{ code: 0, message: 'success', data }`
 */
export function ok(data: unknown) {
  return { code: 0, message: 'success', data };
}

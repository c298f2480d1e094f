import type {
  AccountUpdateEvent,
  BarEvent,
  MarketTradeEvent,
  Order,
  OrderUpdateEvent,
  Position,
  PositionUpdateEvent,
  QuoteEvent,
} from '../../core/model/index.ts';
import { D } from '../../core/model/index.ts';

/** The sym most kernel tests trade. */
export const BTC = 'BINANCE_PERP_BTC_USDT';
/** A second sym. */
export const ETH = 'BINANCE_PERP_ETH_USDT';

/**
 * A BBO event.
 * @param ts - venue time (also the receive time)
 * @param bid - best bid
 * @param ask - best ask (default bid + 1)
 * @param sym - default BTC
 * @returns the quote
 */
export function aQuote(ts: number, bid: number, ask = bid + 1, sym = BTC): QuoteEvent {
  return { kind: 'quote', sym, ts, recvTs: ts, bid, bidQty: 1, ask, askQty: 1 };
}

/**
 * A public trade event.
 * @param ts - venue time
 * @param price - trade price
 * @param qty - trade size (default 1)
 * @param sym - default BTC
 * @returns the trade
 */
export function aTrade(ts: number, price: number, qty = 1, sym = BTC): MarketTradeEvent {
  return { kind: 'trade', sym, ts, recvTs: ts, tradeId: `x${ts}`, price, qty, side: 'BUY' };
}

/**
 * A closed 1m kline bar event as a feed would send it.
 * @param openTime - bar open, epoch ms (a whole minute)
 * @param ohlcv - open, high, low, close, volume
 * @param sym - default BTC
 * @returns the bar
 */
export function aFeedBar(
  openTime: number,
  ohlcv: readonly [number, number, number, number, number],
  sym = BTC,
): BarEvent {
  const [open, high, low, close, volume] = ohlcv;
  const ts = openTime + 60_000;
  return {
    kind: 'bar',
    sym,
    ts,
    recvTs: ts,
    interval: '1m',
    openTime,
    open,
    high,
    low,
    close,
    volume,
    closed: true,
  };
}

/**
 * An order update event.
 * @param order - the order
 * @param ts - event time (default the order's updateAt)
 * @returns the event
 */
export function anOrderUpdate(order: Order, ts = order.updateAt): OrderUpdateEvent {
  return { kind: 'order', ts, recvTs: ts, order };
}

/**
 * A position update event for a NET-mode BTC position.
 * @param ts - event time
 * @param qty - signed quantity as a decimal string
 * @param overrides - fields to replace
 * @returns the event
 */
export function aPositionUpdate(
  ts: number,
  qty: string,
  overrides: Partial<Position> = {},
): PositionUpdateEvent {
  const position: Position = {
    positionId: 'pos-1',
    portfolioId: 'p-1',
    sym: BTC,
    positionSide: 'NONE',
    positionQty: D(qty),
    avgPrice: D('100'),
    markPrice: D('100'),
    positionValue: D(qty).mul(100),
    positionMargin: D('0'),
    positionMM: D('0'),
    unrealizedPNL: D('0'),
    leverage: D('10'),
    liqPrice: D('0'),
    adlRank: 0,
    createAt: ts,
    updateAt: ts,
    ...overrides,
  };
  return { kind: 'position', ts, recvTs: ts, position };
}

/**
 * An account report of a NET-mode portfolio in good standing: all of its equity available, no
 * maintenance margin.
 * @param ts - event time (also the receive time)
 * @param equity - the equity the venue reports, as a decimal string
 * @returns the event
 */
export function anAccountUpdate(ts: number, equity: string): AccountUpdateEvent {
  return {
    kind: 'account',
    ts,
    recvTs: ts,
    account: {
      portfolioId: 'p-1',
      equity: D(equity),
      availableMargin: D(equity),
      maintainMargin: D('0'),
      riskRatio: D('0'),
      accountStatus: 'NORMAL',
      positionMode: 'NET',
    },
  };
}

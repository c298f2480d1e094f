/**
 * Market-data events. Prices and sizes are numbers parsed from the venue's strings (hot path,
 * see ARCHITECTURE.md "Decisions"); `decimalOf` turns one back into money exactly.
 * Every event carries `ts` (venue time) and `recvTs` (receive time), epoch ms. `recvTs` is on the
 * session's clock, the one `ctx.now()` reads: live the venue's time as Keel estimates it (the
 * machine's clock for a real venue), on paper the replay's time, in a backtest the receive time
 * its recording holds.
 */
interface MarketEventBase {
  readonly sym: string;
  readonly ts: number;
  readonly recvTs: number;
}

/** Best bid and offer (BBO channel). */
export interface QuoteEvent extends MarketEventBase {
  readonly kind: 'quote';
  readonly bid: number;
  readonly bidQty: number;
  readonly ask: number;
  readonly askQty: number;
}

/** A public trade (TRADE channel); `side` is the aggressor's. */
export interface MarketTradeEvent extends MarketEventBase {
  readonly kind: 'trade';
  readonly tradeId: string;
  readonly price: number;
  readonly qty: number;
  readonly side: 'BUY' | 'SELL';
}

/** Bar intervals Keel knows. */
export type BarInterval = '1m' | '5m' | '15m' | '1h' | '4h' | '1d';

/** A kline bar (KLINE channel, or aggregated from trades); `ts` is the bar's close time. */
export interface BarEvent extends MarketEventBase {
  readonly kind: 'bar';
  readonly interval: BarInterval;
  readonly openTime: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
  /** False while the bar is still forming. */
  readonly closed: boolean;
  /**
   * True on a bar Keel built of a period that began before the market it holds is known from: the
   * first bar after a live start (a warm-up on history's end included), a `watchBars` mid-run or a
   * backtest's start (its window's, else its recordings'), mid-bar, or the first built of trades after the klines it was built
   * from stopped. It holds only the market since, so its open, high, low and volume may differ
   * from the venue's. Absent on every other bar, and on the feed's own.
   */
  readonly partial?: true;
}

/** One price level: [price, size]. */
export type BookLevel = readonly [price: number, size: number];

/** An order-book snapshot (ORDER_BOOK channel), best levels first. */
export interface BookEvent extends MarketEventBase {
  readonly kind: 'book';
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
}

/** Mark price of a perpetual (MARK_PRICE channel), with funding when the venue sends it. */
export interface MarkPriceEvent extends MarketEventBase {
  readonly kind: 'markPrice';
  readonly markPrice: number;
  readonly indexPrice?: number;
  readonly fundingRate?: number;
  readonly nextFundingTime?: number;
}

/**
 * A 24h-style ticker (TICKER channel): last trade price, best bid and ask when known, and the
 * high, low and traded volume over the venue's rolling window (24 h on the venue).
 */
export interface TickerEvent extends MarketEventBase {
  readonly kind: 'ticker';
  readonly last: number;
  readonly bid?: number;
  readonly ask?: number;
  readonly high24h: number;
  readonly low24h: number;
  readonly volume24h: number;
}

/** Index price of a perpetual's underlying (INDEX_PRICE channel). */
export interface IndexPriceEvent extends MarketEventBase {
  readonly kind: 'indexPrice';
  readonly indexPrice: number;
}

/** Open interest of a perpetual (OPEN_INTEREST channel): open position quantity. */
export interface OpenInterestEvent extends MarketEventBase {
  readonly kind: 'openInterest';
  readonly openInterest: number;
}

/** Market data was missed between `fromTs` and `ts` (disconnect, dropped frames). */
export interface GapEvent extends MarketEventBase {
  readonly kind: 'gap';
  readonly fromTs: number;
  readonly reason: string;
}

/** Any market-data event. */
export type MarketEvent =
  | QuoteEvent
  | MarketTradeEvent
  | BarEvent
  | BookEvent
  | MarkPriceEvent
  | TickerEvent
  | IndexPriceEvent
  | OpenInterestEvent
  | GapEvent;

/** Bar interval lengths in milliseconds. */
export const BAR_INTERVAL_MS: Readonly<Record<BarInterval, number>> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
};

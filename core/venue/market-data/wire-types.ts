/**
 * Wire shapes of the public market-data WebSocket pushes (path `/marketdata/v2/public`).
 *
 * The BBO push `{"arg":{"channel":"BBO","sym":"…"},"data":{"bid","bidqty","ask","askqty"}}` with
 * prices as strings is per public venue docs. The venue's docs show no timestamp field and no
 * shapes for TRADE, KLINE, ORDER_BOOK, MARK_PRICE, TICKER, INDEX_PRICE and OPEN_INTEREST: those
 * are Keel's choice, written in the same style (an `arg` naming channel and sym, a `data` object,
 * decimals as strings, times as epoch-ms numbers in `data.ts`).
 */

/**
 * Channels Keel decodes into market events (per public venue docs: BBO, TICKER, TRADE, ORDER_BOOK,
 * KLINE, and for perpetuals MARK_PRICE, INDEX_PRICE, OPEN_INTEREST).
 */
export const MARKET_DATA_CHANNELS = [
  'BBO',
  'TRADE',
  'KLINE',
  'ORDER_BOOK',
  'MARK_PRICE',
  'TICKER',
  'INDEX_PRICE',
  'OPEN_INTEREST',
] as const;

/** A market-data channel name as it appears in `arg.channel`. */
export type MarketDataChannel = (typeof MARKET_DATA_CHANNELS)[number];

/** The `arg` of a push: which channel and which sym it belongs to. */
export interface WireArg<C extends MarketDataChannel = MarketDataChannel> {
  readonly channel: C;
  readonly sym: string;
}

/** A market-data push: `arg` plus the channel's `data`. */
export interface WirePush<C extends MarketDataChannel, D> {
  readonly arg: WireArg<C>;
  readonly data: D;
}

/**
 * BBO data, per public venue docs; `ts` (venue time, epoch ms) is Keel's choice since the docs
 * show none.
 */
export interface WireBboData {
  readonly bid: string;
  readonly bidqty: string;
  readonly ask: string;
  readonly askqty: string;
  readonly ts: number;
}

/** TRADE data, one public trade; the whole shape is Keel's choice. `side` is the aggressor's. */
export interface WireTradeData {
  readonly tradeId: string;
  readonly price: string;
  readonly qty: string;
  readonly side: 'BUY' | 'SELL';
  readonly ts: number;
}

/**
 * KLINE data; the whole shape is Keel's choice. The interval travels in `arg.interval`
 * (e.g. "1m"); `ts` is the bar's close time (openTime + interval) for a closed bar.
 */
export interface WireKlineData {
  readonly openTime: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
  readonly closed: boolean;
  readonly ts: number;
}

/** The `arg` of a KLINE push: Keel's choice adds the bar interval. */
export interface WireKlineArg extends WireArg<'KLINE'> {
  readonly interval: string;
}

/** One book level on the wire: [price, size] as strings (Keel's choice). */
export type WireBookLevel = readonly [price: string, size: string];

/** ORDER_BOOK data, a snapshot with best levels first; the whole shape is Keel's choice. */
export interface WireOrderBookData {
  readonly bids: readonly WireBookLevel[];
  readonly asks: readonly WireBookLevel[];
  readonly ts: number;
}

/**
 * MARK_PRICE data of a perpetual; the whole shape is Keel's choice. The funding fields are
 * optional because not every push carries them.
 */
export interface WireMarkPriceData {
  readonly markPrice: string;
  readonly indexPrice?: string;
  readonly fundingRate?: string;
  readonly nextFundingTime?: number;
  readonly ts: number;
}

/**
 * TICKER data; the whole shape is Keel's choice. `last` is the last trade price; `bid` and `ask`
 * the best bid and ask, absent until the feed showed one; `high24h`, `low24h` and `volume24h` cover
 * the trades of the rolling window ending at `ts` (24 h on the venue).
 */
export interface WireTickerData {
  readonly last: string;
  readonly bid?: string;
  readonly ask?: string;
  readonly high24h: string;
  readonly low24h: string;
  readonly volume24h: string;
  readonly ts: number;
}

/** INDEX_PRICE data of a perpetual; the whole shape is Keel's choice. */
export interface WireIndexPriceData {
  readonly indexPrice: string;
  readonly ts: number;
}

/**
 * OPEN_INTEREST data of a perpetual; the whole shape is Keel's choice. `openInterest` is the open
 * position quantity, in the sym's order-quantity unit.
 */
export interface WireOpenInterestData {
  readonly openInterest: string;
  readonly ts: number;
}

/** A BBO push. */
export type WireBboPush = WirePush<'BBO', WireBboData>;
/** A TRADE push. */
export type WireTradePush = WirePush<'TRADE', WireTradeData>;
/** A KLINE push. */
export interface WireKlinePush {
  readonly arg: WireKlineArg;
  readonly data: WireKlineData;
}
/** An ORDER_BOOK push. */
export type WireOrderBookPush = WirePush<'ORDER_BOOK', WireOrderBookData>;
/** A MARK_PRICE push. */
export type WireMarkPricePush = WirePush<'MARK_PRICE', WireMarkPriceData>;

/** A TICKER push. */
export type WireTickerPush = WirePush<'TICKER', WireTickerData>;
/** An INDEX_PRICE push. */
export type WireIndexPricePush = WirePush<'INDEX_PRICE', WireIndexPriceData>;
/** An OPEN_INTEREST push. */
export type WireOpenInterestPush = WirePush<'OPEN_INTEREST', WireOpenInterestData>;

/** Any market-data push Keel decodes. */
export type WireMarketPush =
  | WireBboPush
  | WireTradePush
  | WireKlinePush
  | WireOrderBookPush
  | WireMarkPricePush
  | WireTickerPush
  | WireIndexPricePush
  | WireOpenInterestPush;

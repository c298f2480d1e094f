/**
 * Public market-data channels of the venue: wire types and wire -> model decoders.
 * @packageDocumentation
 */
export { bboMapper } from './bbo-mapper.ts';
export { MarketDataDecodeError } from './decode-error.ts';
export { decodeMarketMessage, isControlMessage, MARKET_DATA_MAPPERS } from './decode-market-message.ts';
export { indexPriceMapper } from './index-price-mapper.ts';
export { indexPricePush, openInterestPush, tickerPush } from './informational-pushes.ts';
export { klineMapper } from './kline-mapper.ts';
export { markPriceMapper } from './mark-price-mapper.ts';
export type { MarketDataMapper } from './market-data-mapper.ts';
export { openInterestMapper } from './open-interest-mapper.ts';
export { orderBookMapper } from './order-book-mapper.ts';
export { tickerMapper } from './ticker-mapper.ts';
export { tradeMapper } from './trade-mapper.ts';
export type { UntrustedPush } from './wire-field-readers.ts';
export type {
  MarketDataChannel,
  WireArg,
  WireBboData,
  WireBboPush,
  WireBookLevel,
  WireIndexPriceData,
  WireIndexPricePush,
  WireKlineArg,
  WireKlineData,
  WireKlinePush,
  WireMarketPush,
  WireMarkPriceData,
  WireMarkPricePush,
  WireOpenInterestData,
  WireOpenInterestPush,
  WireOrderBookData,
  WireOrderBookPush,
  WirePush,
  WireTickerData,
  WireTickerPush,
  WireTradeData,
  WireTradePush,
} from './wire-types.ts';
export { MARKET_DATA_CHANNELS } from './wire-types.ts';

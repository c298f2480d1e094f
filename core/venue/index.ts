/**
 * The venue's protocol: wire types, clients and wire <-> model mapping. Imported only by config/
 * and backtest/paper-venue (see ARCHITECTURE.md). Exports are grouped by area; each area adds its
 * own block.
 * @packageDocumentation
 */

// Public market data: wire types of the market-data channels and their decoders.
export type {
  MarketDataChannel,
  MarketDataMapper,
  UntrustedPush,
  WireArg,
  WireBboData,
  WireBboPush,
  WireBookLevel,
  WireKlineArg,
  WireKlineData,
  WireKlinePush,
  WireMarketPush,
  WireMarkPriceData,
  WireMarkPricePush,
  WireOrderBookData,
  WireOrderBookPush,
  WirePush,
  WireTradeData,
  WireTradePush,
} from './market-data/index.ts';
export {
  bboMapper,
  decodeMarketMessage,
  isControlMessage,
  klineMapper,
  MARKET_DATA_CHANNELS,
  MARKET_DATA_MAPPERS,
  MarketDataDecodeError,
  markPriceMapper,
  orderBookMapper,
  tradeMapper,
} from './market-data/index.ts';

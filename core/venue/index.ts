/**
 * The venue's protocol: wire types, clients and wire <-> model mapping. Imported only by config/
 * and backtest/paper-venue (see ARCHITECTURE.md). Exports are grouped by area; each area adds its
 * own block.
 * @packageDocumentation
 */

export {
  NONCE_OUT_OF_RANGE,
  SUCCESS_CODES,
  VENUE_ERROR_MEANINGS,
  venueErrorMeaning,
} from './error-codes.ts';
// Errors, error codes and signing: shared by the client and the paper venue (server side).
export type { DecodeIssue, VenueErrorInit } from './errors.ts';
export {
  DecodeError,
  RequestRuleError,
  RestClientClosedError,
  VenueError,
  VenueTimeoutError,
} from './errors.ts';
// Live execution client: the execution port on the venue.
export { LiveExecutionClient } from './live/live-execution-client.ts';
export type { LiveExecutionOptions } from './live/live-execution-options.ts';
export type { LiveVenue, LiveVenueOptions, RawVenueMessage } from './live/live-venue.ts';
export { createLiveVenue } from './live/live-venue.ts';
export { DEFAULT_RECONCILE_EVERY_MS } from './live/lookup-catch-up.ts';
// Wire <-> model mapping.
export { orderFromWire, orderToWire, placeOrderBodyFromIntent } from './mapping/order-mapping.ts';
export { placeOrderArgsFromIntent } from './mapping/place-order-args-mapping.ts';
export type { UserDataBatch } from './mapping/user-data-decoder.ts';
export { decodeUserDataBatch, userEventsFromFrame } from './mapping/user-data-decoder.ts';
export {
  accountFromWire,
  algoOrderFromWire,
  assetFromWire,
  executionFromWire,
  liquidationEventFromWire,
  liquidationPositionFromWire,
  positionFromWire,
} from './mapping/user-data-mapping.ts';
// Public market data: wire types of the market-data channels and their decoders.
export type {
  MarketDataChannel,
  MarketDataMapper,
  UntrustedPush,
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
} from './market-data/index.ts';
export {
  bboMapper,
  decodeMarketMessage,
  indexPriceMapper,
  indexPricePush,
  isControlMessage,
  klineMapper,
  MARKET_DATA_CHANNELS,
  MARKET_DATA_MAPPERS,
  MarketDataDecodeError,
  markPriceMapper,
  openInterestMapper,
  openInterestPush,
  orderBookMapper,
  tickerMapper,
  tickerPush,
  tradeMapper,
} from './market-data/index.ts';
export type {
  EndpointDef,
  EndpointName,
  EndpointReply,
  HttpMethod,
  PagedEndpointName,
  RateLimitGroup,
} from './rest/endpoints.ts';
export { ENDPOINTS } from './rest/endpoints.ts';
export type { HttpRequest, HttpResponse, HttpTransport } from './rest/http-transport.ts';
export { undiciTransport } from './rest/http-transport.ts';
export { paginate } from './rest/paginate.ts';
export type { RateLimit } from './rest/rate-limiter.ts';
export { RateLimiter } from './rest/rate-limiter.ts';
export type { RawRestReply, RetryPolicy } from './rest/rest-call.ts';
export { VenueRestClient } from './rest/rest-client.ts';
export type { RestClientOptions } from './rest/rest-client-options.ts';
export { DEFAULT_RATE_LIMITS } from './rest/rest-client-options.ts';
export { REST_SEQ_HEADER, RestMutationLedger } from './rest/rest-mutations.ts';
export { CLOCK_RATE_HEADER, clockRateOf, ServerClock } from './server-clock.ts';
export type { ArrayEncoding, RequestParams, SignedHeaders, Signer } from './signing.ts';
export {
  ARRAY_ENCODINGS,
  DEFAULT_ARRAY_ENCODING,
  hmacSigner,
  loginSignaturePayload,
  paramText,
  restSignaturePayload,
  signRequest,
  verifyLoginSignature,
  verifySignature,
} from './signing.ts';
// REST client: endpoints table, rate limits, retries, pagination.
export type { JitterSource, TimerPort } from './timer-port.ts';
export { backoffDelay, monotonicOf, realTimer } from './timer-port.ts';
// Wire types and schemas of the REST endpoints, the private WebSocket and the User Data channels.
export type {
  AccountCurrencyInfoWire,
  AccountWire,
  AssetWire,
  CurrencyWire,
  SetPositionModeBody,
  StatementQuery,
  StatementWire,
  SymInfoWire,
  SystemStatusWire,
  TradeAccountWire,
} from './wire/account.ts';
export {
  accountCurrencyInfoWireSchema,
  accountWireSchema,
  assetWireSchema,
  currencyWireSchema,
  STATEMENT_TYPES,
  statementWireSchema,
  symInfoWireSchema,
  systemStatusWireSchema,
  tradeAccountWireSchema,
} from './wire/account.ts';
export type {
  AlgoHistoryQuery,
  AlgoOrderRef,
  AlgoOrderWire,
  CancelAllAlgoBody,
  PlaceAlgoOrderBody,
  ReplaceAlgoOrderBody,
} from './wire/algo.ts';
export { ALGO_PLACE_REFUSED_FIELDS, ALGO_QUERY_REFUSED_FIELDS, algoOrderWireSchema } from './wire/algo.ts';
export type {
  CollectionRecordQuery,
  CollectionRecordWire,
  FeeRateQuery,
  FeeRateWire,
  SetSubFeeRateBody,
  SubFeeRateQuery,
} from './wire/broker.ts';
export {
  collectionRecordWireSchema,
  feeGroupWireSchema,
  feeRateWireSchema,
  MAX_FEE_RATE_PORTFOLIOS,
} from './wire/broker.ts';
export type { EnvelopeWire, PageRequest, PageWire } from './wire/common.ts';
export { decimalText, envelopeSchema, epochMs, listOf, pageOf } from './wire/common.ts';
export { decodeWire, parseJson } from './wire/decode.ts';
export type { ExecutionsQuery, ExecutionWire } from './wire/execution.ts';
export { executionWireSchema } from './wire/execution.ts';
export type {
  LiquidationEventDetailWire,
  LiquidationEventWire,
  LiquidationPositionWire,
} from './wire/liquidation.ts';
export {
  liquidationEventDetailWireSchema,
  liquidationEventWireSchema,
  liquidationPositionWireSchema,
} from './wire/liquidation.ts';
export type {
  CoinDiscountWire,
  LoanInfoWire,
  LoanPoolQuery,
  LoanPoolWire,
  MarginLoanBody,
  MarginLoanConfigWire,
  MarginLoanHistoryQuery,
  MarginLoanInfoWire,
  MarginLoanOrderWire,
  MarginLoanStatementWire,
  MarginMaxLoanWire,
  UserInterestWire,
} from './wire/loan.ts';
export {
  coinDiscountWireSchema,
  loanInfoWireSchema,
  loanPoolWireSchema,
  marginLoanConfigWireSchema,
  marginLoanInfoWireSchema,
  marginLoanOrderWireSchema,
  marginLoanStatementWireSchema,
  marginMaxLoanWireSchema,
  userInterestWireSchema,
} from './wire/loan.ts';
export type {
  CancelOrderBody,
  CancelOrdersBody,
  OpenOrdersQuery,
  OrderAckWire,
  OrderHistoryQuery,
  OrderRef,
  OrderWire,
  PlaceOrderBody,
  ReplaceOrderBody,
} from './wire/order.ts';
export { orderAckWireSchema, orderWireSchema, placeOrderBodySchema } from './wire/order.ts';
export type { PlaceOrderAckData, PlaceOrderArgs } from './wire/place-order-message.ts';
export {
  placeOrderAckDataSchema,
  placeOrderArgsProblem,
  placeOrderArgsSchema,
} from './wire/place-order-message.ts';
export type {
  AdlRankWire,
  ClosePositionBody,
  ClosePositionsBody,
  PositionHistoryQuery,
  PositionHistoryWire,
  PositionsQuery,
  PositionWire,
} from './wire/position.ts';
export {
  adlRankWireSchema,
  MAX_CLOSE_POSITIONS_SYMS,
  positionHistoryWireSchema,
  positionWireSchema,
} from './wire/position.ts';
export type { UserDataChannel, UserDataFrameWire } from './wire/user-data.ts';
export { USER_DATA_CHANNELS, userDataFrame, userDataFrameSchema } from './wire/user-data.ts';
export type { CryptoWsAction, LoginArgs, WsReplyWire, WsRequest } from './wire/ws-envelope.ts';
export {
  CRYPTO_WS_ACTIONS,
  loginRequest,
  loginRequestSchema,
  PLACE_ORDER_ACK_EVENT,
  PLACE_ORDER_ACTION,
  PRIVATE_PING,
  PRIVATE_PONG,
  wsReplySchema,
  wsRequestSchema,
} from './wire/ws-envelope.ts';
export type { HeartbeatPolicy } from './ws/heartbeat.ts';
export { DEFAULT_HEARTBEAT } from './ws/heartbeat.ts';
// Private WebSocket: login, keep-alive, order entry, User Data, reconnect.
export type { InboundCounters, RawInboundFrame } from './ws/inbound-counters.ts';
export { createInboundCounters } from './ws/inbound-counters.ts';
export { isRateLimitedLogin } from './ws/login-clock-relearning.ts';
export type { MarketDataOptions, MarketFrameGate, MarketSubscription } from './ws/market-data-client.ts';
export { MarketDataClient } from './ws/market-data-client.ts';
// Market-data WebSocket client: subscriptions, gzip frames, heartbeat, gap after reconnect.
export type { MarketFrame } from './ws/market-frame.ts';
export { classifyMarketFrame, marketFrameText } from './ws/market-frame.ts';
export type { OrderEntryRequest } from './ws/order-entry.ts';
export {
  cancelOrderRequest,
  cancelOrdersRequest,
  MAX_CLIENT_ORDER_ID,
  placeOrderRequest,
  replaceOrderRequest,
} from './ws/order-entry.ts';
export type { LateReply } from './ws/pending-requests.ts';
export type { PrivateFrame } from './ws/private-frame.ts';
export { classifyPrivateFrame, reportBadEntries } from './ws/private-frame.ts';
export { PrivateWsClient } from './ws/private-ws-client.ts';
export type {
  ConnectionEvent,
  PrivateWsOptions,
  ReconnectPolicy,
  RequestOptions,
} from './ws/private-ws-options.ts';
export { DEFAULT_REQUEST_TIMEOUT_MS } from './ws/private-ws-options.ts';
export { PROBLEM_SUMMARY_INTERVAL_MS, RepeatedProblemLog } from './ws/repeated-problem-log.ts';
export {
  ClientClosedError,
  ConnectionLostError,
  ConnectionNotOpenedError,
  NotConnectedError,
} from './ws/ws-errors.ts';

/**
 * Keel's domain model: readonly values in the venue's words. Imports nothing of ours.
 * @packageDocumentation
 */
export type { Account, AccountStatus, Asset, Loan, LoanRisk } from './account.ts';
export type {
  AlgoCancelReason,
  AlgoConditionType,
  AlgoOrder,
  AlgoOrderPending,
  AlgoOrderState,
  AlgoOrderType,
} from './algo-order.ts';
export { ALGO_CONDITION_TYPES, ALGO_ORDER_TYPES, isFinalAlgoState } from './algo-order.ts';
export type { ClosedLeg } from './closed-legs.ts';
export { closedLegs } from './closed-legs.ts';
export {
  COMMAND_NOT_APPLIED,
  COMMAND_OUTCOME_UNKNOWN,
  refusesAFinalOrder,
  showsNoOpenOrder,
  VENUE_ORDER_ALREADY_COMPLETED,
  VENUE_ORDER_ALREADY_FINAL,
  VENUE_ORDER_NOT_FOUND,
} from './command-rejection-codes.ts';
export type { Dec } from './decimal.ts';
export {
  asNumber,
  D,
  decimalForStep,
  decimalOf,
  decimalOfComputed,
  floorToStep,
  formatDecimal,
  isAboveZero,
  isBelowZero,
  isOnStep,
  numberOf,
  ONE,
  parseDecimal,
  ZERO,
} from './decimal.ts';
export { differs, isAbove, isAtLeast, isAtMost, isBelow } from './exact-comparisons.ts';
export type { ExecType, Execution } from './execution.ts';
export type {
  BusinessType,
  CryptoInstrumentId,
  EquityInstrumentId,
  ExchangeType,
  FeeSchedule,
  InstrumentId,
  InstrumentSpec,
  SymState,
} from './instrument.ts';
export {
  BUSINESS_TYPES,
  EXCHANGE_TYPES,
  formatSym,
  isPerpetual,
  parseSym,
  settlesInCoins,
} from './instrument.ts';
export type { FieldType, WrongFieldType } from './intent-field-types.ts';
export { describeWrongFieldType, wrongFieldType } from './intent-field-types.ts';
export type { UnknownFieldValue } from './intent-field-values.ts';
export { describeUnknownFieldValue, unknownFieldValue } from './intent-field-values.ts';
export type {
  BorrowIntent,
  CancelAlgoOrderIntent,
  CancelAllAlgoOrdersIntent,
  CancelOrderIntent,
  CancelOrdersIntent,
  ClosePositionIntent,
  ClosePositionsIntent,
  EmulationTrigger,
  Intent,
  IntentKind,
  ModifyOrderIntent,
  PlaceAlgoOrderIntent,
  PlaceOrderIntent,
  RepayIntent,
  ReplaceAlgoOrderIntent,
  SetPositionModeIntent,
  StrategyIntent,
  TrailingOffsetType,
  TrailingStopSpec,
} from './intents.ts';
export { CANCEL_INTENT_KINDS, EMULATION_TRIGGERS, TRAILING_OFFSET_TYPES } from './intents.ts';
export { KEEL_VERSION } from './keel-version.ts';
export type {
  LiquidationEventRecord,
  LiquidationEventType,
  LiquidationNodeType,
  LiquidationPositionRecord,
  LiquidationPositionSnapshot,
} from './liquidation.ts';
export { LIQUIDATION_EVENT_TYPES, LIQUIDATION_NODE_TYPES } from './liquidation.ts';
export { hourlyLoanInterest } from './loan-interest.ts';
export type {
  BarEvent,
  BarInterval,
  BookEvent,
  BookLevel,
  GapEvent,
  IndexPriceEvent,
  MarketEvent,
  MarketTradeEvent,
  MarkPriceEvent,
  OpenInterestEvent,
  QuoteEvent,
  TickerEvent,
} from './market-events.ts';
export { BAR_INTERVAL_MS } from './market-events.ts';
export { isNotionalBelowMinimum } from './min-notional.ts';
export { shareOf } from './money-share.ts';
export type {
  ConditionCode,
  InFlightOrderState,
  Order,
  OrderAction,
  OrderCondition,
  OrderSide,
  OrderState,
  OrderType,
  TimeInForce,
  TpSl,
  TriggerPriceType,
  VenueOrderState,
} from './order.ts';
export {
  CONDITION_CODES,
  closesHedgeLeg,
  FINAL_ORDER_STATES,
  IN_FLIGHT_ORDER_STATES,
  isFinalOrderState,
  ORDER_SIDES,
  ORDER_TYPES,
  onlyReducesPosition,
  TIMES_IN_FORCE,
  TRIGGER_PRICE_TYPES,
  VENUE_ORDER_STATES,
  VENUE_TIMES_IN_FORCE,
} from './order.ts';
export type { Position, PositionMode, PositionSide } from './position.ts';
export { POSITION_MODES, POSITION_SIDES, positionKey, signedPositionQty } from './position.ts';
export { REDACTED, Secret } from './secret.ts';
export {
  formatTimeToSend,
  parseTimeToSend,
  TIME_TO_SEND_FORMAT,
  TIME_TO_SEND_ZONE,
} from './time-to-send.ts';
export { US_EQUITY_ZONE } from './us-equity-zone.ts';
export type {
  AccountUpdateEvent,
  AdlRankEvent,
  AlgoOrderUpdateEvent,
  AssetUpdateEvent,
  CommandRejectedEvent,
  ExecutionEvent,
  LiquidationNodeEvent,
  LiquidationPositionEvent,
  LoanUpdateEvent,
  OrderUpdateEvent,
  PositionUpdateEvent,
  UserEvent,
} from './user-events.ts';
export type { VenueStatus, VenueStream, VenueStreamState } from './venue-status.ts';

import type { MarketEvent } from './market-events.ts';
import type { UserEvent } from './user-events.ts';

/** Any event the kernel consumes: market data or User Data. */
export type KeelEvent = MarketEvent | UserEvent;
export { tpSlSideProblem } from './tp-sl-side.ts';

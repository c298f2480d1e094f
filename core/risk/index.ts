/**
 * The risk gate: every intent passes through it before an execution port.
 * @packageDocumentation
 */
export type { ApprovedIntent } from './approved-intent.ts';
export { cryptoConditionsCheck } from './crypto-condition-check.ts';
export { equityAttachmentsCheck } from './equity-attachment-check.ts';
export { equityQuoteQtyCheck } from './equity-quote-check.ts';
export { maxGrossExposureCheck, maxNotionalCheck, maxPositionCheck } from './exposure-checks.ts';
export { instrumentKnownCheck, instrumentTradingCheck, symsOf } from './instrument-checks.ts';
export type { KillSwitchMarks } from './kill-switch.ts';
export { KillSwitch, utcDayOf } from './kill-switch.ts';
export {
  clientOrderIdCheck,
  conditionArgumentsCheck,
  fieldValuesCheck,
  gtdExpiryDateCheck,
  loanAmountCheck,
  orderPriceCheck,
  orderQtyCheck,
  positionSideCheck,
  timeInForceCheck,
} from './order-argument-checks.ts';
export {
  closePositionsSymListCheck,
  maxOrdersPerSymCheck,
  modifyTargetCheck,
  reduceOnlyCheck,
} from './order-book-checks.ts';
export { maxOpenOrdersCheck, priceBandCheck } from './order-limit-checks.ts';
export {
  maxSizeCheck,
  minNotionalCheck,
  minSizeCheck,
  priceOnTickCheck,
  qtyOnLotCheck,
} from './order-size-checks.ts';
export type { OrderTerms } from './order-terms.ts';
export { notionalPrice, orderNotional, orderTermsOf, sizeKnown } from './order-terms.ts';
export { reducesPosition } from './position-reduction.ts';
export type { CheckInput, LimitScope, RiskCheck } from './risk-check.ts';
export { deny } from './risk-check.ts';
export { RISK_CHECKS } from './risk-check-chain.ts';
export type { RiskCheckName } from './risk-check-names.ts';
export { DISABLEABLE_CHECK_NAMES, RISK_CHECK_NAMES } from './risk-check-names.ts';
export type { Denial, RiskDecision } from './risk-decision.ts';
export type { KillSwitchState, LimitedSym } from './risk-gate.ts';
export { RiskGate } from './risk-gate.ts';
export type {
  KillSwitchConfig,
  RateLimit,
  RiskGateConfig,
  RiskGateConfigInput,
  RiskLimits,
  RiskLimitsInput,
} from './risk-limits.ts';
export { killSwitchSchema, rateLimitSchema, riskGateConfigSchema, riskLimitsSchema } from './risk-limits.ts';
export type { OpenOrderFilter, RestingAlgoOrder, RiskView } from './risk-view.ts';
export { TokenBucket } from './token-bucket.ts';
export { tpSlSideCheck } from './tp-sl-side-check.ts';
export type { TradingState, TradingStatus } from './trading-state.ts';
export { isRiskReducing, stricterStatus } from './trading-state.ts';

/**
 * The simulated venue: the execution port on virtual time, fed by recorded market events, reporting
 * through the same User Data events as the live venue.
 * @packageDocumentation
 */

export { ASSUMED_FUNDING_INTERVAL_MS } from './assumed-funding.ts';
export type { BarOverlap } from './bar-coverage.ts';
export type { EquitySnapshot } from './equity-estimate.ts';
export type { FillModelName, FillModelOptions } from './fill-model.ts';
export { describeFillModel, FILL_MODEL_NAMES, resolveFillModel } from './fill-model.ts';
export type { LatencyOptions, LatencySpec } from './latency-model.ts';
export { latencyLegSampler, longestViewDelay, ZERO_LATENCY } from './latency-model.ts';
export type { LoanHeadroom } from './loan-limits.ts';
export { loanHeadroom, maxLoanable } from './loan-limits.ts';
export type { SimErrorName } from './sim-errors.ts';
export { SIM_ERRORS, SimVenueError } from './sim-errors.ts';
export { simLeverageOf, simTakesLeverage } from './sim-leverage.ts';
export type {
  HoldingSpent,
  LoanAssetTerms,
  LoanOptions,
  LoanPrincipal,
  PlacementRefusals,
  SimVenueOptions,
} from './sim-options.ts';
export {
  DEFAULT_LATENCY,
  DEFAULT_MAINTENANCE_MARGIN_RATE,
  DEFAULT_VALUATION_COINS,
  maintenanceMarginRateOf,
  resolveLoanOptions,
} from './sim-options.ts';
export type { CashFlow, EarlySpanWork, SimLedger } from './sim-state.ts';
export type { SimVenue } from './sim-venue.ts';
export { createSimVenue } from './sim-venue.ts';
export { UsEquityHours } from './us-equity-hours.ts';

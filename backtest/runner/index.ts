/**
 * The backtest runner: recordings + strategies + simulated venue + virtual clock -> result,
 * with progress output and the flat commission bar-backtest users expect (position sizing is
 * on the strategy API: `ctx.size`).
 * @packageDocumentation
 */

export type { AlgoOrderJournalOptions } from './algo-order-journal.ts';
export { AlgoOrderJournal } from './algo-order-journal.ts';
export type { BacktestRunOptions } from './backtest-run-options.ts';
export type { BacktestWarmUp, BacktestWarmUpOptions } from './backtest-warm-up.ts';
export { WarmUpTookEverythingError } from './backtest-warm-up.ts';
export { barOverlapWarnings } from './bar-overlap-warning.ts';
export type { FillModelAdvice } from './chosen-fill-model-warnings.ts';
export type { FlatCommission } from './commission.ts';
export { fixedCommissionText, withCommission } from './commission.ts';
export type { CreationOrderJournalOptions } from './creation-order-journal.ts';
export { CreationOrderJournal } from './creation-order-journal.ts';
export { defaultAnnualizationOf, runAnnualizationOf } from './default-annualization.ts';
export {
  defaultFillModelFor,
  defaultFillModelWarnings,
  fillModelWarnings,
  sourceStartFillModelWarnings,
  tradableMarketEvent,
} from './default-fill-model.ts';
export { denialRecordOf } from './denial-records.ts';
export { earlySpanWorkWarnings } from './early-span-work-warning.ts';
export { EmptyReplayWindowError } from './empty-replay-window.ts';
export { EquitySampler } from './equity-sampler.ts';
export type { EquitySamplerOptions } from './equity-sampler-options.ts';
export { cachedMarketEvents, eventCachePaths } from './event-cache.ts';
export { instrumentFeeRatesText, subPortfolioMarkupText } from './fee-rates-text.ts';
export { RiskGateReusedError } from './gate-claim.ts';
export { KillSwitchTrips } from './kill-switch-trips.ts';
export { lateBarInputWarnings } from './late-bar-input-warnings.ts';
export { marketEventIdentity } from './market-event-identity.ts';
export type { OrderJournalOptions } from './order-journal.ts';
export { OrderJournal } from './order-journal.ts';
export type { PerpFeed, PerpMarginTerms, PerpMarketSeen } from './perp-assumptions.ts';
export { perpAssumptions, perpFeedsOf } from './perp-assumptions.ts';
export type { ProgressOptions, ProgressReporter } from './progress-reporter.ts';
export { createProgressReporter } from './progress-reporter.ts';
export { RecordingOverlaps } from './recording-overlaps.ts';
export {
  isLoanRefusal,
  loanRefusalWarning,
  refusedLoanText,
  rejectedOrderText,
  rejectionWarning,
} from './rejection-warning.ts';
export type { ReplaySource } from './replay-source.ts';
export { replaySourceName } from './replay-source.ts';
export type { ReplaySourceOptions } from './replay-sources.ts';
export { emptyReplayWindow } from './replay-window-check.ts';
export { runBacktest } from './run-backtest.ts';
export type { StrategyParamsEntry } from './setup-warnings.ts';
export { setupWarnings, unlistedSymWarnings } from './setup-warnings.ts';
export type { StartingCoinValue } from './starting-coin-notes.ts';
export { startingCoinsConfig } from './starting-coin-notes.ts';
export { coinPriceOf, coinsWorth, coinValuingSyms, startingEquityOf } from './starting-coins.ts';
export { symsNamedBy } from './strategy-syms.ts';
export { unattributedCloseWarnings } from './unattributed-close-warnings.ts';
export { fundingTimesHeld, unfundedHoldWarnings } from './unfunded-holds.ts';

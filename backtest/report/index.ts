/**
 * Backtest results and report: round-trip trades, metrics, result files and the HTML report.
 * @packageDocumentation
 */
export type { EquitySample, PricePoint, SampledPricePoint, TimeInterval } from './equity-sample.ts';
export type { ChartData, ChartMarker, ChartPoint } from './html/chart-data.ts';
export { chartData, MAX_FILL_MARKERS, markerStride, toChartPoints } from './html/chart-data.ts';
export { lightweightChartsSource } from './html/chart-library.ts';
export { escapeHtml, jsonForScript, scriptSafe } from './html/escape-html.ts';
export {
  formatDuration,
  formatInterval,
  formatMoney,
  formatPercent,
  formatRatio,
  formatTime,
  NOT_DEFINED,
  withWhyNotDefined,
} from './html/format-values.ts';
export {
  REJECTION_WARNING_START,
  type RunWarningsAndNotes,
  warningsAndNotes,
} from './html/post-only-rejections.ts';
export type { HtmlReportOptions } from './html/render-report.ts';
export {
  MAX_TRADE_ROWS,
  renderHtmlReport,
  writeHtmlReport,
  writeHtmlReportFromFile,
} from './html/render-report.ts';
export type { StatsRow } from './html/stats-rows.ts';
export { statsRows } from './html/stats-rows.ts';
export { readLines } from './log/line-reader.ts';
export type {
  HolderJudging,
  HolderVerdict,
  ProcessIdentity,
  ProcessProbe,
} from './log/process-identity.ts';
export {
  HEARTBEAT_MS,
  heartbeatAgeOf,
  hostProbe,
  identityFrom,
  judgeHolder,
  processIdentity,
  sameProcess,
} from './log/process-identity.ts';
export { processRuns } from './log/process-runs.ts';
export type { RecordCodec, RecordLog } from './log/record-log.ts';
export { firstRecords, hasLines } from './log/record-log.ts';
export type { LockEnvironment, RunLock, RunLockResult, StaleLock } from './log/run-lock.ts';
export { acquireRunLock, LOCK_STALE_AFTER_MS, OutputLocked, tookOverWarning } from './log/run-lock.ts';
export { SPILL_STALE_AFTER_MS, SpillDirectory } from './log/spill-directory.ts';
export { SpillLog } from './log/spill-log.ts';
export type { AnnualizationBasis, PeriodReturns } from './metrics/annualization.ts';
export {
  CRYPTO_ANNUALIZATION,
  DAY_MS,
  EQUITY_ANNUALIZATION,
  periodReturns,
  YEAR_MS,
} from './metrics/annualization.ts';
export type { BacktestMetrics, MetricsInput } from './metrics/backtest-metrics.ts';
export { computeMetrics } from './metrics/backtest-metrics.ts';
export type {
  BuyAndHold,
  BuyAndHoldBasis,
  BuyAndHoldBenchmark,
  BuyAndHoldSources,
  SymPrices,
} from './metrics/buy-and-hold.ts';
export { buyAndHoldOf, buyAndHoldReturn } from './metrics/buy-and-hold.ts';
export type { CashFlowStats, LiquidationStats, LoanTotals } from './metrics/cash-flow-metrics.ts';
export { cashFlowStats, liquidationStats, loanTotals } from './metrics/cash-flow-metrics.ts';
export type { CostStats } from './metrics/cost-metrics.ts';
export { CostTally, costStats } from './metrics/cost-metrics.ts';
export type { DrawdownFigures, DrawdownPeriod, DrawdownPoint, DrawdownStats } from './metrics/drawdown.ts';
export { DrawdownTracker, drawdownSeries, drawdownStats } from './metrics/drawdown.ts';
export { exposureTime } from './metrics/exposure.ts';
export type { NullableMetric } from './metrics/not-defined-reasons.ts';
export { notDefinedReasons, UNBEATEN_REASONS, whyNotDefined } from './metrics/not-defined-reasons.ts';
export {
  annualizedReturn,
  annualizedVolatility,
  cagr,
  calmarRatio,
  sharpeRatio,
  sortinoRatio,
  totalReturn,
} from './metrics/return-metrics.ts';
export { geometricMeanReturn, mean, sampleStdDev } from './metrics/sample-statistics.ts';
export type {
  SymBreakdown,
  SymBreakdownInput,
  SymBreakdownSpan,
  SymFigures,
  SymRow,
} from './metrics/sym-breakdown.ts';
export { SymTally, symBreakdownOf } from './metrics/sym-breakdown.ts';
export type { TradeStats } from './metrics/trade-metrics.ts';
export { TradeTally, tradeStats } from './metrics/trade-metrics.ts';
export type { TradingHours } from './metrics/trading-time.ts';
export { tradingClock, tradingDayMs } from './metrics/trading-time.ts';
export {
  algoLifecycleText,
  algoOrdersCsvLines,
  denialsCsvLines,
  trailingStopsCsvLines,
} from './result/activity-csv.ts';
export {
  algoOrderRecordSchema,
  denialRecordSchema,
  trailingStopRecordSchema,
} from './result/activity-schemas.ts';
export type { AlgoOrderRecord, AlgoOrderStep } from './result/algo-order-record.ts';
export { nextAlgoOrderRecord } from './result/algo-order-record.ts';
export type {
  BacktestMeta,
  BacktestResult,
  JsonValue,
  ModelDescription,
  PriceSeries,
  RecordingDescription,
  StrategyDescription,
  StrategyFaultRecord,
} from './result/backtest-result.ts';
export type {
  CashFlowKind,
  CashFlowRecord,
  LiquidationFillRecord,
  LiquidationRecord,
} from './result/cash-flow-record.ts';
export { CASH_FLOW_KINDS } from './result/cash-flow-record.ts';
export type { DenialRecord, DenialRecordSource } from './result/denial-record.ts';
export { denialSummary, firstDenialReason } from './result/denial-summary.ts';
export { FileWriteError, writingFile } from './result/file-write-error.ts';
export { LiquidationJournal } from './result/liquidation-journal.ts';
export { liquidationNotice } from './result/liquidation-notice.ts';
export type { FillRecord, OrderRecord, StrategyOwned } from './result/owned-records.ts';
export { KEEL_OWNER, withOwner } from './result/owned-records.ts';
export {
  ALGO_ORDER_CODEC,
  DENIAL_CODEC,
  EXECUTION_CODEC,
  ORDER_CODEC,
  ownedRecordLine,
  ROUND_TRIP_CODEC,
} from './result/record-codecs.ts';
export type { CsvCell } from './result/result-csv.ts';
export {
  cashFlowsCsvLines,
  csvField,
  csvLines,
  equityCsvLines,
  fillsCsvLines,
  isoTime,
  liquidationsCsvLines,
  ordersCsvLines,
  SYM_TOTAL_ROW,
  symsCsvLines,
  tradesCsvLines,
} from './result/result-csv.ts';
export type { ReadResultOptions } from './result/result-files.ts';
export {
  RESULT_FILES,
  readResult,
  resultFromJson,
  resultJsonChunks,
  resultToJson,
  STREAMING_READ_BYTES,
  writeResultFiles,
} from './result/result-files.ts';
export { readResultStreaming } from './result/result-reader.ts';
export {
  backtestResultSchema,
  executionRecordSchema,
  orderRecordSchema,
  roundTripTradeSchema,
} from './result/result-schema.ts';
export { shownPath } from './result/shown-path.ts';
export { stableJson, stableJsonChunks } from './result/stable-json.ts';
export { stableJsonLine } from './result/stable-json-line.ts';
export { removeStaleStagedFiles, stagedNameOf } from './result/staged-name.ts';
export {
  formatStrategyFault,
  formatStrategyRejection,
  strategyFaultRecord,
  userFrameOf,
} from './result/strategy-fault-record.ts';
export type { TrailingStopRecord, TrailingStopStep } from './result/trailing-stop-record.ts';
export { TrailingStopLog } from './result/trailing-stop-record.ts';
export { writeTextFile, writeTextFilesTogether } from './result/write-text-file.ts';
export type { PaidLineScope } from './summary/summary-lines.ts';
export { figuresLine, loanParts, loansLine, paidLine } from './summary/summary-lines.ts';
export { EntryBatches } from './trades/entry-batches.ts';
export { RoundTripBook } from './trades/round-trip-book.ts';
export type { OpenTrade, RoundTripTrade, TradeDirection } from './trades/round-trip-trade.ts';
export type { PlacedSpend, RoundTripOptions, RoundTrips } from './trades/round-trips-from-fills.ts';
export { roundTripsFromFills } from './trades/round-trips-from-fills.ts';

/**
 * Backtest results and report: round-trip trades, metrics, result files and the HTML report.
 * @packageDocumentation
 */
export type { EquitySample, PricePoint, TimeInterval } from './equity-sample.ts';
export type { ChartData, ChartMarker, ChartPoint } from './html/chart-data.ts';
export { chartData, toChartPoints } from './html/chart-data.ts';
export { lightweightChartsSource } from './html/chart-library.ts';
export { escapeHtml, jsonForScript, scriptSafe } from './html/escape-html.ts';
export {
  formatDuration,
  formatMoney,
  formatPercent,
  formatRatio,
  formatTime,
  NOT_DEFINED,
} from './html/format-values.ts';
export type { HtmlReportOptions } from './html/render-report.ts';
export {
  MAX_TRADE_ROWS,
  renderHtmlReport,
  writeHtmlReport,
  writeHtmlReportFromFile,
} from './html/render-report.ts';
export type { StatsRow } from './html/stats-rows.ts';
export { statsRows } from './html/stats-rows.ts';
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
export type { CostStats } from './metrics/cost-metrics.ts';
export { costStats } from './metrics/cost-metrics.ts';
export type { DrawdownFigures, DrawdownPeriod, DrawdownPoint, DrawdownStats } from './metrics/drawdown.ts';
export { DrawdownTracker, drawdownSeries, drawdownStats } from './metrics/drawdown.ts';
export { exposureTime } from './metrics/exposure.ts';
export {
  annualizedReturn,
  annualizedVolatility,
  buyAndHoldReturn,
  cagr,
  calmarRatio,
  sharpeRatio,
  sortinoRatio,
  totalReturn,
} from './metrics/return-metrics.ts';
export { geometricMeanReturn, mean, sampleStdDev } from './metrics/sample-statistics.ts';
export type { TradeStats } from './metrics/trade-metrics.ts';
export { tradeStats } from './metrics/trade-metrics.ts';
export type {
  BacktestMeta,
  BacktestResult,
  JsonValue,
  ModelDescription,
  PriceSeries,
  RecordingDescription,
  StrategyDescription,
} from './result/backtest-result.ts';
export { csvField, equityCsv, fillsCsv, isoTime, ordersCsv, tradesCsv } from './result/result-csv.ts';
export {
  RESULT_FILES,
  readResult,
  resultFromJson,
  resultToJson,
  writeResultFiles,
} from './result/result-files.ts';
export { backtestResultSchema } from './result/result-schema.ts';
export { stableJson } from './result/stable-json.ts';
export type { OpenTrade, RoundTripTrade, TradeDirection } from './trades/round-trip-trade.ts';
export type { RoundTripOptions, RoundTrips } from './trades/round-trips-from-fills.ts';
export { roundTripsFromFills } from './trades/round-trips-from-fills.ts';

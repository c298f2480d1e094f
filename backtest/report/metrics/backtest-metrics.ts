import type { Dec, Execution } from '../../../core/model/index.ts';
import { asNumber } from '../../../core/model/index.ts';
import type { EquitySample, TimeInterval } from '../equity-sample.ts';
import type { RecordLog } from '../log/record-log.ts';
import type { CashFlowRecord, LiquidationRecord } from '../result/cash-flow-record.ts';
import type { OpenTrade, RoundTripTrade } from '../trades/round-trip-trade.ts';
import { type AnnualizationBasis, CRYPTO_ANNUALIZATION, periodReturns } from './annualization.ts';
import { type BuyAndHoldBenchmark, type BuyAndHoldSources, buyAndHoldOf } from './buy-and-hold.ts';
import {
  type CashFlowStats,
  cashFlowStats,
  type LiquidationStats,
  liquidationStats,
} from './cash-flow-metrics.ts';
import { CostTally } from './cost-metrics.ts';
import { type DrawdownFigures, drawdownStats } from './drawdown.ts';
import { exposureTime } from './exposure.ts';
import {
  annualizedReturn,
  annualizedVolatility,
  cagr,
  calmarRatio,
  sharpeRatio,
  sortinoRatio,
  totalReturn,
} from './return-metrics.ts';
import { mean } from './sample-statistics.ts';
import { type TradeStats, type TradeTally, tradeStats } from './trade-metrics.ts';
import type { TradingHours } from './trading-time.ts';

/** What the metrics are computed from. */
export interface MetricsInput {
  /** Equity samples in time order; at least one. */
  readonly equityCurve: readonly EquitySample[];
  /** Closed round-trip trades (an array or a record log: read twice, never loaded). */
  readonly trades: RecordLog<RoundTripTrade>;
  /** Trades still open at the end (count towards exposure until the end of the run). */
  readonly openTrades?: readonly OpenTrade[];
  /** Every fill, for fees and turnover (read once, unless `costTally` is given). */
  readonly fills: Iterable<Execution>;
  /** Fees and turnover summed while the run went; the fills are not read again when given. */
  readonly costTally?: CostTally;
  /** The trades' running sums taken while the run went; the trades are then read once, not twice. */
  readonly tradeTally?: TradeTally;
  /**
   * The run's price series and the syms its strategies name, for the buy & hold benchmark
   * ({@link buyAndHoldOf}: the traded syms come from the fills); no buy & hold when omitted.
   */
  readonly buyAndHold?: BuyAndHoldSources;
  /**
   * When a position was open; derived from the trades when omitted (one interval per trade: a
   * long run passes its `RoundTripBook`'s exposure intervals, one per flat-to-flat stretch).
   */
  readonly exposureIntervals?: readonly TimeInterval[];
  /** Annualization basis; crypto (365 days, automatic period) when omitted. */
  readonly annualization?: AnnualizationBasis;
  /**
   * Drawdown figures measured on every equity sample while the run went (a `DrawdownTracker`),
   * when the curve given is a bounded summary of them; computed from the curve when omitted.
   */
  readonly drawdown?: DrawdownFigures;
  /** Mean equity over every sample taken (for the turnover ratio); the curve's mean when omitted. */
  readonly meanEquity?: number;
  /**
   * The curve's highest equity, from a caller that finds it without reading every point (a
   * backtest's curve computes each point's exact equity when read); the curve's when omitted.
   */
  readonly equityPeak?: Dec;
  /** Units of base per contract of a sym, for turnover; 1 when undefined. */
  readonly contractSizeOf?: (sym: string) => Dec | undefined;
  /**
   * Funding and interest cash flows of the run; when omitted (a session whose venue does not
   * report them) `fundingPaid` and `interestPaid` are left out, not claimed zero.
   */
  readonly cashFlows?: readonly CashFlowRecord[];
  /** The run's liquidations; when omitted the liquidation figures are left out. */
  readonly liquidations?: readonly LiquidationRecord[];
  /** The currency equity is in: cash flows in other coins are not summed ({@link cashFlowStats}). */
  readonly accountCurrency?: string;
}

/**
 * Every metric of a backtest. Fractions are plain numbers (0.1 = 10 %), money is Decimal,
 * durations are milliseconds. A figure that is not defined for the run (a ratio without
 * variance, trade statistics without trades) is null, never NaN or Infinity. Each formula is
 * stated once, on the function computing it (`return-metrics.ts`, `drawdown.ts`,
 * `trade-metrics.ts`, `exposure.ts`, `cost-metrics.ts`, `cash-flow-metrics.ts`). The funding,
 * interest and liquidation figures are absent from result files written before Keel recorded
 * them, and from sessions whose venue does not report them.
 */
export interface BacktestMetrics extends TradeStats, Partial<CashFlowStats>, Partial<LiquidationStats> {
  /** Time of the first equity sample. */
  readonly start: number;
  /** Time of the last equity sample. */
  readonly end: number;
  /** end - start. */
  readonly durationMs: number;
  /** Share of the run with a position open, in [0, 1] ({@link exposureTime}). */
  readonly exposureTime: number;
  readonly equityStart: Dec;
  readonly equityFinal: Dec;
  /** Highest equity sample. */
  readonly equityPeak: Dec;
  /** final / start - 1; null when the start equity is 0. */
  readonly totalReturn: number | null;
  /**
   * Buy & hold return of what the run traded ({@link buyAndHoldOf}): last / first price - 1 of
   * the sym the strategies traded; with several traded syms, of an equal-weight basket of them
   * (the mean of each sym's last / first - 1); with no trades, of the instruments the strategies
   * name, else the run's instruments, else the data's first sym. Null without a price series.
   */
  readonly buyAndHoldReturn: number | null;
  /** The syms {@link buyAndHoldReturn} was taken on and why those; absent without one (and in older results). */
  readonly buyAndHoldBenchmark?: BuyAndHoldBenchmark;
  readonly annualizedReturn: number | null;
  readonly annualizedVolatility: number | null;
  readonly cagr: number | null;
  readonly sharpe: number | null;
  readonly sortino: number | null;
  readonly calmar: number | null;
  readonly maxDrawdown: number;
  /**
   * Time of the equity sample at {@link maxDrawdown} (the first of equal depths), measured on
   * every sample as the depth is; absent when equity never fell, and in result files written
   * before Keel recorded it.
   */
  readonly maxDrawdownTs?: number;
  readonly avgDrawdown: number;
  readonly maxDrawdownDurationMs: number;
  readonly avgDrawdownDurationMs: number;
  readonly feesPaid: Dec;
  readonly turnover: Dec;
  readonly turnoverRatio: number | null;
  /** How returns were sampled and annualized, so the report can state it. */
  readonly annualization: {
    readonly period: 'day' | 'sample';
    readonly periodsPerYear: number | null;
    readonly tradingDaysPerYear: number;
    readonly riskFreeRate: number;
    /** `us-equity` when per-sample returns step through the US equity session only; absent for `24/7`. */
    readonly tradingHours?: TradingHours;
    /**
     * Time of the first period equity at or below zero, absent while equity stays positive:
     * the period returns stop there (annualized return -1; volatility, Sharpe and Sortino null).
     */
    readonly ruinTs?: number;
  };
}

/**
 * Computes every metric of a backtest result.
 * @param input - equity curve, trades, fills, price series and annualization basis
 * @returns the metrics
 * @throws RangeError when the equity curve is empty (a run has at least its starting equity)
 */
export function computeMetrics(input: MetricsInput): BacktestMetrics {
  const curve = input.equityCurve;
  const first = curve[0];
  const last = curve[curve.length - 1];
  if (first === undefined || last === undefined) {
    throw new RangeError('computeMetrics: the equity curve is empty; it needs at least the starting equity');
  }
  const basis = input.annualization ?? CRYPTO_ANNUALIZATION;
  const start = first.ts;
  const end = last.ts;
  const durationMs = end - start;
  const startValue = asNumber(first.equity);
  const finalValue = asNumber(last.equity);
  const equityPeak = input.equityPeak ?? peakOfCurve(curve, first.equity);

  const { returns, period, periodsPerYear, ruinTs } = periodReturns(curve, basis);
  const drawdowns = input.drawdown ?? drawdownStats(curve);
  const growth = cagr(startValue, finalValue, durationMs);
  const costs = input.costTally ?? tallyOf(input.fills, input.contractSizeOf);
  const buyAndHold =
    input.buyAndHold === undefined ? undefined : buyAndHoldOf(input.buyAndHold, costs.tradedSyms());
  const intervals = input.exposureIntervals ?? [
    ...Array.from(input.trades, (t) => ({ from: t.entryTs, to: t.exitTs })),
    ...(input.openTrades ?? []).map((t) => ({ from: t.entryTs, to: end })),
  ];
  return {
    start,
    end,
    durationMs,
    exposureTime: exposureTime(intervals, start, end),
    equityStart: first.equity,
    equityFinal: last.equity,
    equityPeak,
    totalReturn: totalReturn(startValue, finalValue),
    buyAndHoldReturn: buyAndHold?.value ?? null,
    ...(buyAndHold === undefined ? {} : { buyAndHoldBenchmark: buyAndHold.benchmark }),
    annualizedReturn: annualizedReturn(returns, periodsPerYear),
    annualizedVolatility: annualizedVolatility(returns, periodsPerYear),
    cagr: growth,
    sharpe: sharpeRatio(returns, periodsPerYear, basis.riskFreeRate),
    sortino: sortinoRatio(returns, periodsPerYear, basis.riskFreeRate),
    calmar: calmarRatio(growth, drawdowns.maxDrawdown),
    maxDrawdown: drawdowns.maxDrawdown,
    ...(drawdowns.maxDrawdownTs === undefined ? {} : { maxDrawdownTs: drawdowns.maxDrawdownTs }),
    avgDrawdown: drawdowns.avgDrawdown,
    maxDrawdownDurationMs: drawdowns.maxDrawdownDurationMs,
    avgDrawdownDurationMs: drawdowns.avgDrawdownDurationMs,
    ...(input.tradeTally === undefined ? tradeStats(input.trades) : input.tradeTally.stats(input.trades)),
    ...costs.stats(input.meanEquity ?? mean(curve.map((s) => asNumber(s.equity)))),
    ...(input.cashFlows === undefined ? {} : cashFlowStats(input.cashFlows, input.accountCurrency)),
    ...(input.liquidations === undefined ? {} : liquidationStats(input.liquidations)),
    annualization: {
      period,
      periodsPerYear,
      tradingDaysPerYear: basis.tradingDaysPerYear,
      riskFreeRate: basis.riskFreeRate,
      ...(basis.tradingHours === undefined || basis.tradingHours === '24/7'
        ? {}
        : { tradingHours: basis.tradingHours }),
      ...(ruinTs === undefined ? {} : { ruinTs }),
    },
  };
}

function tallyOf(fills: Iterable<Execution>, contractSizeOf: MetricsInput['contractSizeOf']): CostTally {
  const tally = new CostTally(contractSizeOf);
  for (const fill of fills) tally.add(fill);
  return tally;
}

/** The highest equity of a curve: the first point's holding it. */
function peakOfCurve(curve: readonly EquitySample[], first: Dec): Dec {
  let peak = first;
  for (const s of curve) if (s.equity.gt(peak)) peak = s.equity;
  return peak;
}

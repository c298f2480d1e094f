import type { EquitySample, PricePoint, SampledPricePoint } from '../equity-sample.ts';
import type { RecordLog } from '../log/record-log.ts';
import type { BacktestMetrics } from '../metrics/backtest-metrics.ts';
import type { SymBreakdown } from '../metrics/sym-breakdown.ts';
import type { OpenTrade, RoundTripTrade } from '../trades/round-trip-trade.ts';
import type { AlgoOrderRecord } from './algo-order-record.ts';
import type { CashFlowRecord, LiquidationRecord } from './cash-flow-record.ts';
import type { DenialRecord } from './denial-record.ts';
import type { FillRecord, OrderRecord } from './owned-records.ts';
import type { TrailingStopRecord } from './trailing-stop-record.ts';

/** A JSON value: what parameters and run configuration are written as. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** A model of the simulation named in the report: fill, latency or fee model. */
export interface ModelDescription {
  /** Short name, e.g. `bar-next-open`. */
  readonly name: string;
  /** What it assumes, in one or two sentences a user can check. */
  readonly description: string;
  /** Its settings as configured. */
  readonly params?: { readonly [key: string]: JsonValue };
}

/** A strategy that took part in the run. */
export interface StrategyDescription {
  readonly id: string;
  readonly name: string;
  readonly params: { readonly [key: string]: JsonValue };
}

/** A recording the run replayed. */
export interface RecordingDescription {
  /** File name or path as given to the runner. */
  readonly path: string;
  /** True when the data were generated, not recorded from a venue. */
  readonly synthetic: boolean;
  /** Free text, e.g. where the data came from or how they were generated. */
  readonly description?: string;
}

/** Who ran what on which data and under which assumptions. */
export interface BacktestMeta {
  /**
   * The version of the Keel that made the result (package.json's): results of different versions
   * are not comparable (CHANGELOG.md). Absent in results written before Keel 0.2.0.
   */
  readonly keel?: string;
  readonly title: string;
  readonly strategies: readonly StrategyDescription[];
  readonly recordings: readonly RecordingDescription[];
  readonly fillModel: ModelDescription;
  readonly latencyModel: ModelDescription;
  readonly feeModel: ModelDescription;
  /** True when any replayed data is synthetic; the report says so on top. */
  readonly synthetic: boolean;
  /** Starting cash, settle asset, options such as closing open trades at the end. */
  readonly runConfig: { readonly [key: string]: JsonValue };
  /** Further assumptions stated in the report, one sentence each. */
  readonly assumptions: readonly string[];
  /**
   * Things that look like mistakes in the run's setup (a watched sym the recordings lack, bars of
   * an interval they do not hold), one sentence each; the report and the CLI show them.
   */
  readonly warnings?: readonly string[];
}

/**
 * A strategy hook that threw (or returned something that made the kernel throw): the strategy
 * was halted there and did nothing more for the rest of the run.
 */
export interface StrategyFaultRecord {
  /** The strategy's id; `kernel` when the kernel's own work failed. */
  readonly strategyId: string;
  /** The hook or stream that threw, e.g. `onBar`, `onStart`, `setup stream`. */
  readonly hook: string;
  /** Event time when it threw, epoch ms. */
  readonly ts: number;
  /** The error's name and message, e.g. `Error: boom`. */
  readonly error: string;
  /**
   * The first stack frame outside Keel's own code (the user's plugin file), as
   * `path:line:column`; absent when the error has no stack or none of its frames is outside Keel.
   */
  readonly at?: string;
  /**
   * Set when nothing threw: the hook `returned` (the setup stream `emitted`) a value that is not
   * intents, e.g. `[undefined]` or an async hook's Promise. Absent for a throw.
   */
  readonly how?: 'returned' | 'emitted';
  /**
   * The strategy's plugin file, when `at` cannot place the fault (a returned value leaves no
   * stack frame of the plugin) and the strategy came from a plugin module.
   */
  readonly file?: string;
}

/** The price series of one sym, for the price chart and its fill markers. */
export interface PriceSeries {
  readonly sym: string;
  /**
   * The first price, the price at each equity bucket's close, and the last price; on bar data
   * each bucket's point carries the range of its bars.
   */
  readonly points: readonly SampledPricePoint[];
  /**
   * Width of those buckets, ms: the points are a sample, one a bucket, not every price. Absent in
   * result files written before Keel recorded it.
   */
  readonly bucketMs?: number;
  /**
   * Length of the sym's bars, ms, when its prices came from bars (the longest seen): the points
   * are then at most one a bar. Absent on quote or trade data and in older result files.
   */
  readonly barMs?: number;
  /**
   * The lowest price the run marked the sym at (of every price, not only the points: a bucket's
   * wick the points miss; on bar data each bar's low, at the bar's time), the earliest of equal
   * ones, with its time. Absent in result files
   * written before Keel recorded it.
   */
  readonly low?: PricePoint;
  /** The highest price the run marked the sym at, as {@link PriceSeries.low}. */
  readonly high?: PricePoint;
}

/**
 * Everything a backtest produced: the input of the result files and the HTML report. Orders,
 * fills, trades, algo orders and denials are record logs: arrays for small results, or (a backtest run, a large result
 * file read back) temporary files read in chunks on each iteration, so their number does not
 * weigh on memory. Such a result holds temporary files until {@link BacktestResult.dispose}
 * runs (or the process exits); iterate the logs, never index them.
 */
export interface BacktestResult {
  readonly meta: BacktestMeta;
  /** Every order in its final state, in creation order, with the strategy owning it. */
  readonly orders: RecordLog<OrderRecord>;
  /** Every fill, in execution order, with the strategy owning its order. */
  readonly fills: RecordLog<FillRecord>;
  /** Closed round-trip trades, in closing order. */
  readonly trades: RecordLog<RoundTripTrade>;
  /** Lots still open at the end of the run. */
  readonly openTrades: readonly OpenTrade[];
  /**
   * Equity samples in time order. A backtest's points compute their exact equity when it is first
   * read (the metrics read a few of them), so reading the curve's length or times costs no Decimal work.
   */
  readonly equityCurve: readonly EquitySample[];
  /** Prices of the traded syms (e.g. bar closes or quote mids). */
  readonly prices: readonly PriceSeries[];
  readonly metrics: BacktestMetrics;
  /**
   * Trades, win rate, net PnL, fees, return contribution and exposure per sym, and of the whole
   * run ({@link SymBreakdown}). Absent in result files written before Keel broke results down by
   * sym, and in session results.
   */
  readonly symBreakdown?: SymBreakdown;
  /**
   * Funding settlements and loan interest charges, in booking order: the balance changes that
   * are not fills. Absent in result files written before Keel recorded them and in sessions
   * whose venue does not report them.
   */
  readonly cashFlows?: readonly CashFlowRecord[];
  /**
   * The account's liquidations, in the order they were triggered (empty when there was none).
   * Absent in result files written before Keel recorded them.
   */
  readonly liquidations?: readonly LiquidationRecord[];
  /**
   * Strategies halted because a hook threw, in the order it happened. Absent (or empty) when none
   * did; a run with faults ends with its own exit code (see the README's exit codes).
   */
  readonly faults?: readonly StrategyFaultRecord[];
  /**
   * Every algo order (standalone trigger orders and attached take-profit / stop-loss legs) in its
   * last state with its steps, in creation order. Absent in result files written before Keel
   * recorded them.
   */
  readonly algoOrders?: RecordLog<AlgoOrderRecord>;
  /**
   * Every intent denied by the kernel or the risk gate, and every command the venue refused
   * (what `onDenied` was told), in time order. Absent in result files written before Keel
   * recorded them.
   */
  readonly denials?: RecordLog<DenialRecord>;
  /**
   * Every trailing stop Keel emulated (`ctx.order.trailingStop`), in its last state with its
   * status changes, in acceptance order. Absent when the run placed none.
   */
  readonly trailingStops?: readonly TrailingStopRecord[];
  /**
   * Removes the temporary files behind the record logs; iterating them afterwards throws.
   * Absent when the logs are plain arrays. Calling it twice does nothing.
   */
  readonly dispose?: () => void;
}

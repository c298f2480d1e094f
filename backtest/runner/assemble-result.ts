import type { Dec, InstrumentSpec } from '../../core/model/index.ts';
import { KEEL_VERSION, ONE } from '../../core/model/index.ts';
import type { SessionHeader } from '../recording/index.ts';
import {
  type BacktestResult,
  type CostTally,
  computeMetrics,
  type DenialRecord,
  type EntryBatches,
  type FillRecord,
  formatInterval,
  type JsonValue,
  type LiquidationJournal,
  type OrderRecord,
  type RecordingDescription,
  type RecordLog,
  type RoundTripBook,
  type RoundTripTrade,
  type SpillLog,
  type SymTally,
  type TradeTally,
  type TrailingStopLog,
} from '../report/index.ts';
import { maintenanceMarginRateOf, type SimVenue } from '../sim/index.ts';
import type { AlgoOrderJournal } from './algo-order-journal.ts';
import type { BacktestRunOptions } from './backtest-run-options.ts';
import { type BacktestWarmUp, warmUpAssumption } from './backtest-warm-up.ts';
import { cashFlowRecordsOf } from './cash-flow-records.ts';
import { fixedCommissionText } from './commission.ts';
import { runAnnualizationOf } from './default-annualization.ts';
import type { EquitySampler } from './equity-sampler.ts';
import { instrumentFeeRatesText, subPortfolioMarkupText } from './fee-rates-text.ts';
import type { OrderJournal } from './order-journal.ts';
import { type PerpMarketSeen, perpAssumptions, perpFeedsOf } from './perp-assumptions.ts';
import { recordedSampleStep } from './recorded-sample-step.ts';
import { replaySourceName } from './replay-source.ts';
import { type StartingCoinValue, startingCoinsConfig, startingCoinsNotes } from './starting-coin-notes.ts';
import { symsNamedBy } from './strategy-syms.ts';
import { unclosedNotes } from './unclosed-positions.ts';

/** What a run writes as it goes, in its spill directory. */
export interface RunRecords {
  readonly journal: OrderJournal;
  readonly fills: SpillLog<FillRecord>;
  readonly trades: SpillLog<RoundTripTrade>;
  readonly book: RoundTripBook;
  /** Which orders are one order sliced into several, for the book. */
  readonly batches: EntryBatches;
  readonly costs: CostTally;
  readonly tally: TradeTally;
  /** The fills' fees and the closed trades per sym, for the result's `symBreakdown`. */
  readonly syms: SymTally;
  readonly liquidations: LiquidationJournal;
  readonly algoOrders: AlgoOrderJournal;
  readonly denials: SpillLog<DenialRecord>;
  /** The trailing stops the kernel emulated. */
  readonly trailingStops: TrailingStopLog;
}

/**
 * Why the equity curve on bars shows no dip of an entry fee at the open (Keel's choice, as
 * backtesting.py's bar-close equity): a bar is known only once it closed, and the venue matches it
 * whole, so the sample after it is marked at its close. A sample between the fills at its open and
 * the rest of the bar would need the venue to stop mid-bar; it would still miss the bar's lows.
 */
const BAR_SAMPLING_NOTE =
  "On bars, equity is sampled once each bar has been matched, marked at its close (as backtesting.py's equity is): an order filled at a bar's open shows its fee together with that bar's move, and moves inside a bar (its low, the fee before the move) are not in the curve or the drawdowns. A paper session on the same bars samples as the events reach it: where a fill stamped at a bar's close came with the next bar, its curve holds the equity before that fill, so its curve and drawdown figures may differ from this run's at such closes (fills and final equity do not).";

function describeFees(instruments: readonly InstrumentSpec[], options: BacktestRunOptions): string {
  const subText = subPortfolioMarkupText(options.sim?.subPortfolioMarkup, options.subPortfolio);
  if (options.commission !== undefined) {
    const rate = options.commission.rate?.mul(10_000).toFixed() ?? '0';
    return `Flat commission of ${rate} bps of notional${fixedCommissionText(options.commission)}, for makers and takers alike.${subText}`;
  }
  const source =
    options.feeSchedule === 'flat' ? 'Flat maker/taker rates for every instrument' : 'Per-instrument fees';
  return `${source} paid in the quote asset. ${instrumentFeeRatesText(instruments)}.${subText}`;
}

function recordingDescription(path: string, header: SessionHeader): RecordingDescription {
  return {
    path,
    synthetic: header.synthetic,
    ...(header.description === undefined ? {} : { description: header.description }),
  };
}

/** How the sampling step was chosen when the run was given none: as the recordings' session sampled, for the run's span, or for a run whose recordings hold no record. */
function defaultStepNote(spanMs: number | undefined, recordedStep: number | undefined): string {
  if (recordedStep !== undefined)
    return ' (the step the session that made the recording sampled at, as its header states)';
  return spanMs === undefined
    ? ' (the default step for a run without recorded time: the recordings hold no record)'
    : ' (the default step for this span of recorded time)';
}

/**
 * Builds a run's result once every event was replayed: seals its records, notes the models and
 * assumptions it ran under, and computes the metrics.
 * @param options - the run's options
 * @param headers - each recording's header, in `options.recordings` order
 * @param instruments - the run's instruments
 * @param sim - the simulated venue after the run
 * @param seen - the latest market events of each sym the kernel saw (where each perpetual's mark and funding came from)
 * @param records - what the run wrote as it went
 * @param sampler - the run's equity sampler
 * @param spanMs - the run's event-time span, undefined when its recordings hold no record
 * @param settleAsset - the account currency
 * @param startingCoins - coins held from the start besides the cash, with the price valuing them
 * @param warmUp - what the strategies warmed up on, when the run had a warm-up
 * @param closeRefusals - the denial of each sym whose end-of-run closing command was denied
 * @returns the result
 */
export function assembleResult(
  options: BacktestRunOptions,
  headers: readonly SessionHeader[],
  instruments: readonly InstrumentSpec[],
  sim: SimVenue,
  seen: PerpMarketSeen,
  records: RunRecords,
  sampler: EquitySampler,
  spanMs: number | undefined,
  settleAsset: string,
  startingCoins: readonly StartingCoinValue[] = [],
  warmUp?: BacktestWarmUp,
  closeRefusals: ReadonlyMap<string, DenialRecord> = new Map(),
): BacktestResult {
  const instrumentSyms = instruments.map((s) => s.sym);
  const contractSizes = new Map<string, Dec>(instruments.map((s) => [s.sym, s.contractSize]));
  const contractSizeOf = (sym: string): Dec => contractSizes.get(sym) ?? ONE;
  const orders: RecordLog<OrderRecord> = records.journal.finish();
  const fills: RecordLog<FillRecord> = records.fills.seal();
  records.book.flush();
  const closed: RecordLog<RoundTripTrade> = records.trades.seal();
  const open = records.book.openTrades();
  const end = sampler.curve[sampler.curve.length - 1]?.ts ?? Number.POSITIVE_INFINITY;
  // Only the run's instruments (when it names any): a recording's other syms reach no strategy
  // and are not traded.
  const prices = sampler
    .priceSeries()
    .filter((series) => instrumentSyms.length === 0 || instrumentSyms.includes(series.sym))
    .map((series) => ({ ...series, bucketMs: sampler.bucketMs }));
  const synthetic = headers.some((h) => h.synthetic);
  const cashFlows = cashFlowRecordsOf(sim.statement());
  const liquidations = records.liquidations.records();
  const trailingStops = records.trailingStops.records();
  const closeAtEnd = options.closeAtEnd ?? true;
  const runConfig: { [key: string]: JsonValue } = {
    startingCash: options.startingCash.toFixed(),
    settleAsset,
    ...startingCoinsConfig(options.startingCash, startingCoins),
    closeAtEnd,
    seed: options.seed ?? 1,
    equitySampleMs: sampler.everyMs,
    ...(warmUp === undefined
      ? {}
      : {
          warmUp: {
            periodMs: warmUp.periodMs,
            from: new Date(warmUp.from).toISOString(),
            until: new Date(warmUp.until).toISOString(),
            events: warmUp.events,
          },
        }),
    ...(options.commission === undefined
      ? {}
      : {
          commission: {
            rate: options.commission.rate?.toFixed() ?? '0',
            fixedPerFill: options.commission.fixedPerFill?.toFixed() ?? '0',
            ...(options.commission.fixedPerOrder === undefined
              ? {}
              : { fixedPerOrder: options.commission.fixedPerOrder.toFixed() }),
          },
        }),
  };
  const assumptions = [
    closeAtEnd
      ? "Strategies see every event; positions still open after the last one are then closed by market orders at each instrument's last known price (on bars the last close, as backtesting.py does; on quotes and trades the last quote or trade), paying the usual fees."
      : 'Positions still open at the end stay open: they count in equity, not in the trade statistics.',
    ...(closeAtEnd ? unclosedNotes(open, closeRefusals) : []),
    "The simulated venue matches each market event at its receive time; strategies see it after the latency model's market-data delay, their orders reach the venue after its order-entry delay, and its User Data reaches them after its User Data delay (see the latency line).",
    `Equity is sampled at most every ${sampler.everyMs / 1000} s of event time${options.equitySampleMs === undefined ? defaultStepNote(spanMs, recordedSampleStep(headers)) : ''} and at the end; ` +
      `the curve keeps, per ${formatInterval(sampler.bucketMs)} bucket of event time, the lowest and highest sample and the equity at the bucket's last event, ` +
      `so its size stays bounded (at most ${options.equityBuckets ?? 4096} buckets, or one a day on longer runs: buckets never widen beyond a day) while daily returns see each day's last equity; ` +
      'drawdown figures and the mean equity of the turnover ratio are measured on every sample (estimated on numbers between the exact ones).',
    ...(sim.fillModelName === 'bar' ? [BAR_SAMPLING_NOTE] : []),
    ...startingCoinsNotes(options.startingCash, startingCoins, settleAsset),
    ...(warmUp === undefined ? [] : [warmUpAssumption(warmUp)]),
    ...perpAssumptions(instruments, perpFeedsOf(seen, cashFlows, sim.fillModelName === 'bar'), {
      leverageOf: (sym) => sim.leverageOf(sym),
      maintenanceMarginRateOf: (sym) => maintenanceMarginRateOf(options.sim?.maintenanceMarginRate, sym),
    }),
    ...(options.assumptions ?? []),
  ];
  const metrics = computeMetrics({
    equityCurve: sampler.curve,
    trades: closed,
    openTrades: open,
    fills,
    exposureIntervals: records.book.exposureIntervals(end),
    costTally: records.costs,
    tradeTally: records.tally,
    drawdown: sampler.drawdownFigures(),
    meanEquity: sampler.meanEquity(),
    ...peakOf(sampler),
    buyAndHold: {
      prices,
      namedSyms: symsNamedBy(options.strategies, instrumentSyms),
      instrumentSyms,
    },
    annualization: runAnnualizationOf(instruments, sampler.bucketMs, options.annualization),
    contractSizeOf,
    cashFlows,
    liquidations,
    accountCurrency: settleAsset,
  });
  return {
    meta: {
      keel: KEEL_VERSION,
      title: options.title ?? `Backtest of ${options.strategies.map((s) => s.strategy.name).join(', ')}`,
      strategies: options.strategies.map((slot) => ({
        id: slot.id,
        name: slot.strategy.name,
        params: options.reportParams?.[slot.id] ?? toJsonRecord(slot.params),
      })),
      recordings: options.recordings.map((source, i) =>
        recordingDescription(replaySourceName(source), headers[i] as SessionHeader),
      ),
      fillModel: { name: sim.fillModelName, description: sim.assumptions.fillModel },
      latencyModel: { name: 'fixed + seeded jitter', description: sim.assumptions.latency },
      feeModel: {
        name:
          options.commission !== undefined
            ? 'commission'
            : options.feeSchedule === 'flat'
              ? 'flat maker-taker'
              : 'maker-taker',
        description: describeFees(instruments, options),
      },
      synthetic,
      runConfig,
      assumptions,
    },
    orders,
    fills,
    trades: closed,
    openTrades: open,
    equityCurve: sampler.curve,
    prices,
    cashFlows,
    liquidations,
    algoOrders: records.algoOrders.finish(),
    denials: records.denials.seal(),
    // Left out when none, so results of runs without trailing stops stay as they were.
    ...(trailingStops.length === 0 ? {} : { trailingStops }),
    metrics,
    symBreakdown: records.syms.breakdown({
      start: metrics.start,
      end: metrics.end,
      equityStart: metrics.equityStart,
      exposureOf: (sym) =>
        sym === undefined ? records.book.exposureIntervals(end) : records.book.symExposureIntervals(sym, end),
    }),
  };
}

/** The curve's peak as the sampler finds it, reading only the points near it; none before any sample. */
function peakOf(sampler: EquitySampler): { equityPeak?: Dec } {
  const equityPeak = sampler.equityPeak();
  return equityPeak === undefined ? {} : { equityPeak };
}

function toJsonRecord(value: unknown): { [key: string]: JsonValue } {
  if (value === undefined || value === null || typeof value !== 'object') return {};
  return JSON.parse(JSON.stringify(value)) as { [key: string]: JsonValue };
}

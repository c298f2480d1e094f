import {
  type BacktestResult,
  FileWriteError,
  type OrderRecord,
  type StrategyFaultRecord,
} from '../../backtest/report/index.ts';
import {
  type EquitySampler,
  fillModelWarnings,
  fundingTimesHeld,
  instrumentFeeRatesText,
  lateBarInputWarnings,
  type PerpFeed,
  type PerpMarginTerms,
  perpAssumptions,
  perpFeedsOf,
  setupWarnings,
  startingCoinsConfig,
  subPortfolioMarkupText,
  unattributedCloseWarnings,
  unfundedHoldWarnings,
} from '../../backtest/runner/index.ts';
import {
  FILL_MODEL_NAMES,
  type FillModelName,
  maintenanceMarginRateOf,
  simLeverageOf,
} from '../../backtest/sim/index.ts';
import type { Kernel, StrategySlot } from '../../core/kernel/index.ts';
import { type Dec, type InstrumentSpec, ZERO } from '../../core/model/index.ts';
import type { KeelConfig } from '../schema/index.ts';
import { defaultedSpecNotes } from './instrument-specs.ts';
import { paperParityNotes } from './paper-parity-notes.ts';
import { csvPathsOf, type RunOutputPaths, reportPathsOf, writeRunOutputs } from './run-outputs.ts';
import type { SessionFillModel, SessionLatency, SessionRecord } from './session-result.ts';
import { sessionResult } from './session-result.ts';
import type { SessionStartingCoins } from './session-starting-coins.ts';
import type { SessionStatement } from './session-statement.ts';
import type { SessionStopReason } from './session-stop.ts';
import { subPortfolioMarkupOf, subPortfolioOf } from './sim-models.ts';
import type { UserDataJournal } from './user-data-journal.ts';

/**
 * How a session knows its algo orders: the venue pushes no algo order updates, so each state
 * listed is one the venue reported in a reply, its algo order history or a lookup, except
 * TRIGGERED from the order an algo order sent (Keel's choice).
 */
const ALGO_ORDER_NOTE =
  "Algo orders: the venue pushes no algo order updates. Each state listed is one the venue reported: in its replies to the strategies' algo commands, in its algo order history (read for the take-profit / stop-loss legs attached to an order once that order ended with fills; a leg that had already ended by then shows only its end), or when asked at the session's end about those still open; TRIGGERED is also taken from the order an algo order sent, which names it.";

/**
 * How a paper session valued the coins it started with, and which it could not value.
 * @param coins - the session's starting coins
 * @param settleAsset - the account currency
 * @returns the sentences (none without starting coins)
 */
function startingCoinNotes(coins: SessionStartingCoins, settleAsset: string): string[] {
  const parts = coins.values.map(
    (c) =>
      `${c.qty.toFixed()} ${c.coin} at ${c.price.toFixed()} (the first price of ${c.sym} the session saw)`,
  );
  return [
    ...(parts.length === 0
      ? []
      : [
          `The session starts holding ${parts.join(', ')}: its starting equity counts them at those prices, as a backtest's does, and so do the return and the PnL; they count at those prices until the venue reports the account (it had seen no price when the session began), then at the venue's valuation.`,
        ]),
    ...coins
      .unpriced()
      .map(
        (coin) =>
          `${coin}: the feed gave no price of an instrument trading it against ${settleAsset}, so the session's equity counts it only as the venue values it.`,
      ),
  ];
}

/**
 * The instruments a session placed orders on, read from its order log (on file for a long run).
 * @param orders - the session's orders
 * @returns their syms
 */
function symsOf(orders: Iterable<OrderRecord>): Set<string> {
  const syms = new Set<string>();
  for (const order of orders) syms.add(order.sym);
  return syms;
}

/** What a stopped live or paper session hands to its report. */
export interface VenueSessionReportInput {
  readonly config: KeelConfig;
  readonly mode: 'live' | 'paper';
  /** How the venue is named in the report. */
  readonly venueLabel: string;
  readonly synthetic: boolean;
  readonly lockstep: boolean;
  readonly recordingPath: string | undefined;
  readonly instruments: readonly InstrumentSpec[];
  readonly slots: readonly StrategySlot[];
  readonly kernel: Kernel;
  /** The session's orders, fills, algo orders, denials, liquidations and refusals. */
  readonly journal: UserDataJournal;
  /** Funding, interest and loans read from the venue's statements. */
  readonly statement: SessionStatement;
  readonly sampler: EquitySampler;
  readonly faults: readonly StrategyFaultRecord[];
  readonly fillModel: SessionFillModel;
  /** The paper venue's fill model when the run picked it: warned about when it did not fit the data. */
  readonly defaultedFillModel?: FillModelName;
  readonly latency: SessionLatency | undefined;
  readonly stopReason: SessionStopReason;
  readonly settleAsset: string;
  /** A paper session's starting coins besides its cash, and that cash. */
  readonly startingCoins?: { readonly cash: Dec; readonly coins: SessionStartingCoins };
  /** Warnings of the stop itself (orders its cancels may have missed), shown first. */
  readonly shutdownWarnings?: readonly string[];
  /** Further warnings of the session (e.g. a warm-up the history did not cover). */
  readonly warnings?: readonly string[];
  /** The positions the venue held when the session began: its trade list starts from them. */
  readonly adoptedPositions?: SessionRecord['adoptedPositions'];
}

/**
 * Builds a stopped session's result (orders, fills, equity curve, cash flows from the venue's
 * statements, faults, and the warnings of a setup that never traded, of orders the venue refused
 * or of statements that could not be read) and writes the JSON and HTML reports
 * the config asks for. Files that cannot be written (a full disk) do not end the shutdown: the
 * session's summary still shows what it did, and says the files are missing and why.
 * @param input - the session's config, journal, sampler, faults and how it stopped
 * @returns the result, where its outputs were written (or were to be), and why they were not
 * @throws what building the result throws
 */
export async function writeVenueSessionReport(input: VenueSessionReportInput): Promise<{
  readonly result: BacktestResult;
  readonly outputs: RunOutputPaths;
  /** Why the result and report files were not written (naming the file); absent when they were. */
  readonly notWritten?: string;
  /** With `notWritten`: the result was in place before a CSV or the report failed. */
  readonly resultWritten?: boolean;
}> {
  const { config, mode, journal, settleAsset } = input;
  const userData = journal.finish();
  const starting = input.startingCoins;
  const cashFlows = input.statement.cashFlows();
  const feedOf = perpFeedsOf(
    input.kernel.state,
    cashFlows,
    (input.defaultedFillModel ?? input.fillModel.name) === 'bar',
  );
  const sessionOnly = sessionResult({
    title: `${mode === 'paper' ? 'Paper' : 'Live'} session of ${config.name ?? input.slots.map((s) => s.strategy.name).join(', ')}`,
    mode,
    venue: input.venueLabel,
    synthetic: input.synthetic,
    recording: input.recordingPath,
    instruments: input.instruments,
    slots: input.slots,
    orders: userData.orders,
    fills: userData.fills,
    batchOf: (clientOrderId) => journal.batches.batchOf(clientOrderId),
    holdingSpends: userData.holdingSpends,
    ...(input.adoptedPositions === undefined ? {} : { adoptedPositions: input.adoptedPositions }),
    algoOrders: userData.algoOrders,
    denials: userData.denials,
    trailingStops: journal.trailingStops.records(),
    liquidations: journal.liquidations.records(),
    ...(cashFlows === undefined ? {} : { cashFlows }),
    accountCurrency: settleAsset,
    sampler: input.sampler,
    fillModel: input.fillModel,
    ...(input.latency === undefined ? {} : { latency: input.latency }),
    runConfig: {
      mode,
      lockstep: input.lockstep,
      stoppedBy: input.stopReason,
      settleAsset,
      ...(starting === undefined ? {} : startingCoinsConfig(starting.cash, starting.coins.values)),
    },
    ...(mode === 'paper' ? { feeDescription: paperFeeDescription(input.instruments, config) } : {}),
    // Live specs and margin are the venue's own; the paper venue's come from Keel's table or its
    // defaults, and it margins them as a backtest's simulated venue does.
    assumptions: [
      ...(mode === 'paper'
        ? perpAssumptions(input.instruments, feedOf, paperMarginTerms(input.instruments), 'the feed')
        : []),
      ...(mode === 'paper' ? defaultedSpecNotes(input.instruments) : []),
      ...(userData.algoOrders.length > 0 ? [ALGO_ORDER_NOTE] : []),
      ...(starting === undefined ? [] : startingCoinNotes(starting.coins, settleAsset)),
      ...(mode === 'paper'
        ? paperParityNotes({
            lockstep: input.lockstep,
            barFillModel: (input.defaultedFillModel ?? input.fillModel.name) === 'bar',
          })
        : []),
    ],
  });
  const warnings = [
    ...(input.shutdownWarnings ?? []),
    ...setupWarnings(
      input.kernel,
      input.slots,
      input.instruments.map((spec) => spec.sym),
      'the feed',
    ),
    ...lateBarInputWarnings(input.kernel, 'the feed'),
    ...unattributedCloseWarnings(input.kernel),
    ...sessionFillModelWarnings(input, symsOf(userData.orders)),
    ...[
      journal.rejections.warning(),
      journal.rejections.keelWarning(),
      journal.rejections.loanWarning(),
    ].filter((w): w is string => w !== undefined),
    ...input.statement.warnings(sessionOnly.metrics.liquidationFees ?? ZERO, settleAsset),
    ...(mode === 'paper' ? paperFundingWarnings(input.instruments, feedOf, sessionOnly) : []),
    ...(input.warnings ?? []),
  ];
  const result: BacktestResult = {
    ...sessionOnly,
    meta: { ...sessionOnly.meta, warnings },
    faults: input.faults,
    dispose: () => journal.dispose(),
  };
  const paths = reportPathsOf(config);
  let resultWritten = false;
  const onResultWritten = (): void => {
    resultWritten = true;
  };
  try {
    return {
      result,
      outputs: await writeRunOutputs(result, paths, settleAsset, undefined, {
        resultFirst: true,
        onResultWritten,
      }),
    };
  } catch (error) {
    if (!(error instanceof FileWriteError)) throw error;
    const outputs = { ...paths, csv: csvPathsOf(paths.json) };
    return { result, outputs, notWritten: error.message, resultWritten };
  }
}

/**
 * A paper run's fill-model warnings, as a backtest's: of the model Keel chose for it, or of the
 * one its config set (`paper.fillModel`) when that does not fit the data of an ordered sym; none
 * for a live run (the venue's fills).
 */
function sessionFillModelWarnings(
  input: Pick<VenueSessionReportInput, 'defaultedFillModel' | 'fillModel' | 'kernel'>,
  orderedSyms: ReadonlySet<string>,
): string[] {
  const model = input.defaultedFillModel ?? input.fillModel.name;
  if (!(FILL_MODEL_NAMES as readonly string[]).includes(model)) return [];
  return fillModelWarnings(
    model as FillModelName,
    input.defaultedFillModel !== undefined,
    input.kernel.state,
    orderedSyms,
    'paper.fillModel',
  );
}

/**
 * The paper venue's margin terms: it builds its simulated venue with no leverage or maintenance
 * margin rate of its own, so each sym's spec leverage and the default rate.
 */
function paperMarginTerms(instruments: readonly InstrumentSpec[]): PerpMarginTerms {
  const specs = new Map(instruments.map((spec) => [spec.sym, spec]));
  return {
    leverageOf: (sym) => simLeverageOf(specs.get(sym) as InstrumentSpec),
    maintenanceMarginRateOf: (sym) => maintenanceMarginRateOf(undefined, sym),
  };
}

/** A paper run's warnings of perpetual positions held across a funding time its feed gave no rate for. */
function paperFundingWarnings(
  instruments: readonly InstrumentSpec[],
  feedOf: (sym: string) => PerpFeed,
  result: BacktestResult,
): string[] {
  const curve = result.equityCurve;
  return unfundedHoldWarnings(
    instruments,
    feedOf,
    fundingTimesHeld(
      result.trades,
      result.openTrades,
      curve[curve.length - 1]?.ts ?? Number.NEGATIVE_INFINITY,
    ),
    'the feed',
  );
}

/**
 * The embedded paper venue's fee schedule in words: the rates it charged each fill (its
 * instruments' maker and taker rates, with the sub-portfolio's markup on top), as a backtest's
 * fee model names them.
 */
function paperFeeDescription(instruments: readonly InstrumentSpec[], config: KeelConfig): string {
  return (
    `Fees as the paper venue charged them on each fill, paid in the quote asset. ${instrumentFeeRatesText(instruments)}.` +
    subPortfolioMarkupText(subPortfolioMarkupOf(config), subPortfolioOf(config))
  );
}

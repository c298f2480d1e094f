import type { BacktestResult, StrategyFaultRecord } from '../../backtest/report/index.ts';
import { defaultFillModelWarnings, type EquitySampler, setupWarnings } from '../../backtest/runner/index.ts';
import type { FillModelName } from '../../backtest/sim/index.ts';
import type { Kernel, StrategySlot } from '../../core/kernel/index.ts';
import { type InstrumentSpec, ZERO } from '../../core/model/index.ts';
import type { KeelConfig } from '../schema/index.ts';
import { defaultedSpecNotes } from './instrument-specs.ts';
import { type RunOutputPaths, reportPathsOf, writeRunOutputs } from './run-outputs.ts';
import type { SessionFillModel, SessionLatency } from './session-result.ts';
import { sessionResult } from './session-result.ts';
import type { SessionStatement } from './session-statement.ts';
import type { SessionStopReason } from './session-stop.ts';
import type { UserDataJournal } from './user-data-journal.ts';

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
  /** Further warnings of the session (e.g. a warm-up the history did not cover). */
  readonly warnings?: readonly string[];
}

/**
 * Builds a stopped session's result (orders, fills, equity curve, cash flows from the venue's
 * statements, faults, and the warnings of a setup that never traded, of orders the venue refused
 * or of statements that could not be read) and writes the JSON and HTML reports
 * the config asks for.
 * @param input - the session's config, journal, sampler, faults and how it stopped
 * @returns the result and where its outputs were written
 */
export async function writeVenueSessionReport(
  input: VenueSessionReportInput,
): Promise<{ readonly result: BacktestResult; readonly outputs: RunOutputPaths }> {
  const { config, mode, journal, settleAsset } = input;
  const cashFlows = input.statement.cashFlows();
  const sessionOnly = sessionResult({
    title: `${mode === 'paper' ? 'Paper' : 'Live'} session of ${config.name ?? input.slots.map((s) => s.strategy.name).join(', ')}`,
    mode,
    venue: input.venueLabel,
    synthetic: input.synthetic,
    recording: input.recordingPath,
    instruments: input.instruments,
    slots: input.slots,
    orders: journal.orderList(),
    fills: journal.fills,
    algoOrders: journal.algoOrderList(),
    denials: journal.denials,
    liquidations: journal.liquidations.records(),
    ...(cashFlows === undefined ? {} : { cashFlows }),
    accountCurrency: settleAsset,
    sampler: input.sampler,
    fillModel: input.fillModel,
    ...(input.latency === undefined ? {} : { latency: input.latency }),
    runConfig: { mode, lockstep: input.lockstep, stoppedBy: input.stopReason, settleAsset },
    // Live specs are the venue's own; the paper venue's come from Keel's table or its defaults.
    assumptions: mode === 'paper' ? defaultedSpecNotes(input.instruments) : [],
  });
  const warnings = [
    ...setupWarnings(
      input.kernel,
      input.slots,
      input.instruments.map((spec) => spec.sym),
      'the feed',
    ),
    ...(input.defaultedFillModel === undefined
      ? []
      : defaultFillModelWarnings(
          input.defaultedFillModel,
          input.kernel.state,
          new Set(journal.orderList().map((order) => order.sym)),
          'paper.fillModel',
        )),
    ...[journal.rejections.warning(), journal.rejections.loanWarning()].filter(
      (w): w is string => w !== undefined,
    ),
    ...input.statement.warnings(sessionOnly.metrics.liquidationFees ?? ZERO, settleAsset),
    ...(input.warnings ?? []),
  ];
  const result: BacktestResult = {
    ...sessionOnly,
    meta: { ...sessionOnly.meta, warnings },
    faults: input.faults,
  };
  const outputs = await writeRunOutputs(result, reportPathsOf(config), settleAsset);
  return { result, outputs };
}

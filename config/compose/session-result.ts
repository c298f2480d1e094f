import {
  type AlgoOrderRecord,
  type BacktestResult,
  type CashFlowRecord,
  computeMetrics,
  type DenialRecord,
  type FillRecord,
  type JsonValue,
  type LiquidationRecord,
  type OrderRecord,
  type RecordLog,
  type RoundTripOptions,
  roundTripsFromFills,
  shownPath,
  type TrailingStopRecord,
} from '../../backtest/report/index.ts';
import { type EquitySampler, runAnnualizationOf, symsNamedBy } from '../../backtest/runner/index.ts';
import type { LatencyOptions, LatencySpec } from '../../backtest/sim/index.ts';
import type { StrategySlot } from '../../core/kernel/index.ts';
import type { Dec, InstrumentSpec } from '../../core/model/index.ts';
import { KEEL_VERSION, ONE } from '../../core/model/index.ts';
import type { HoldingSpend } from './holding-spends.ts';

/** The latency a paper venue applied: its legs and the seed of their jitter. */
export interface SessionLatency {
  readonly legs: LatencyOptions;
  readonly seed: number;
}

/** How a session's fills came about, as the report names and describes them. */
export interface SessionFillModel {
  /** `venue` for a live run, else the paper venue's fill model name. */
  readonly name: string;
  /** One sentence for the report. */
  readonly description: string;
}

/** What a live or paper session leaves for its report. */
export interface SessionRecord {
  readonly title: string;
  readonly mode: 'live' | 'paper';
  readonly venue: string;
  readonly synthetic: boolean;
  readonly recording: string | undefined;
  readonly instruments: readonly InstrumentSpec[];
  readonly slots: readonly StrategySlot[];
  /** Every order in its latest state, with the strategy owning it when known (on file for a long run). */
  readonly orders: RecordLog<OrderRecord>;
  /** Every fill, with the strategy owning its order when known (on file for a long run). */
  readonly fills: RecordLog<FillRecord>;
  /**
   * The batch of an order's fills (`EntryBatches.batchOf`): the orders sliced in one hook call
   * count as one order in the trade list; absent = each order its own.
   */
  readonly batchOf?: RoundTripOptions['batchOf'];
  /**
   * The positions the venue held when the session began (see `adoptedPositionsOf`): the trade
   * list starts from their lots (entry order `adopted`); absent = none.
   */
  readonly adoptedPositions?: RoundTripOptions['adopted'];
  /** What left spot holdings without a fill (loan interest paid in a coin); absent = none. */
  readonly holdingSpends?: readonly HoldingSpend[];
  /** Every algo order with its steps; absent = none recorded (the key is then left out). */
  readonly algoOrders?: RecordLog<AlgoOrderRecord>;
  /** Every intent the kernel denied and command the venue refused; absent = none recorded. */
  readonly denials?: RecordLog<DenialRecord>;
  /** Every trailing stop the kernel emulated, with its status changes; absent or empty = none. */
  readonly trailingStops?: readonly TrailingStopRecord[];
  /**
   * Funding, interest, borrows and repays from the venue's statements; absent when they could
   * not be fetched (the figures are then left out, not claimed zero).
   */
  readonly cashFlows?: readonly CashFlowRecord[];
  /** The currency equity is in: cash flows in other coins are listed, not summed. */
  readonly accountCurrency?: string;
  /** The liquidations the venue reported on its User Data channels (empty when none). */
  readonly liquidations?: readonly LiquidationRecord[];
  readonly sampler: EquitySampler;
  readonly fillModel: SessionFillModel;
  /** The paper venue's configured latency; absent = none beyond the sockets'. */
  readonly latency?: SessionLatency;
  readonly runConfig: { readonly [key: string]: JsonValue };
  /** Further assumptions to state in the report (e.g. instrument specs Keel defaulted). */
  readonly assumptions?: readonly string[];
  /** The fee model's description when the session knows the venue's schedule (the paper venue's). */
  readonly feeDescription?: string;
}

function legText(leg: LatencySpec): string {
  return leg.jitterMs > 0 ? `${leg.fixedMs} ms + U[0,${leg.jitterMs}) ms` : `${leg.fixedMs} ms`;
}

/**
 * The report's latency model of a session: the paper venue's configured legs when it had some.
 * @param session - the session
 * @returns name and description
 */
function latencyModelOf(session: SessionRecord): { name: string; description: string } {
  if (session.mode === 'live') {
    return { name: 'network', description: 'Real sockets: whatever latency the session had.' };
  }
  if (session.latency === undefined) {
    return { name: 'loopback', description: 'Loopback sockets only: the paper venue added no latency.' };
  }
  const { legs, seed } = session.latency;
  return {
    name: 'configured',
    description:
      `The paper venue's configured latency on venue time: order entry ${legText(legs.orderEntry)}, ` +
      `user data ${legText(legs.userData ?? legs.marketData)} (jitter seed ${seed}); ` +
      'market data not delayed; plus the loopback sockets’ own.',
  };
}

/**
 * What the report says of the positions a session adopted: where its trades start from.
 * @param adopted - the adopted positions
 * @returns one sentence, or none when nothing was adopted
 */
function adoptionNotes(adopted: NonNullable<RoundTripOptions['adopted']>): string[] {
  if (adopted.length === 0) return [];
  const held = adopted
    .map(
      (p) =>
        `${p.sym} ${p.positionSide === 'NONE' ? '' : `${p.positionSide} `}${p.direction} ${p.qty.toFixed()} @ ${p.price.toFixed()}`,
    )
    .join(', ');
  return [
    `The session began holding ${held} (opened before it): each is a lot entered when adopted at the venue's entry price, entry order "adopted", which the session's fills close first; its trades' PnL counts from that price, not the original entry.`,
  ];
}

/**
 * The result of a live or paper session in the backtest result's shape, so one report format
 * (JSON, CSVs, HTML, `keel report`) serves every mode. The fills are the venue's own; the trades
 * pair them, starting from the positions adopted at the start, and follow the coin that left spot
 * holdings without a fill, as a backtest's do.
 * @param session - what the session saw
 * @returns the result
 */
export function sessionResult(session: SessionRecord): BacktestResult {
  const sizes = new Map<string, Dec>(session.instruments.map((s) => [s.sym, s.contractSize]));
  const contractSizeOf = (sym: string): Dec => sizes.get(sym) ?? ONE;
  const { closed, open } = roundTripsFromFills(session.fills, {
    contractSizeOf,
    spends: session.holdingSpends ?? [],
    adopted: session.adoptedPositions ?? [],
    ...(session.batchOf === undefined ? {} : { batchOf: session.batchOf }),
  });
  const prices = session.sampler
    .priceSeries()
    .map((series) => ({ ...series, bucketMs: session.sampler.bucketMs }));
  const instrumentSyms = session.instruments.map((s) => s.sym);
  const curve = session.sampler.curve;
  return {
    meta: {
      keel: KEEL_VERSION,
      title: session.title,
      strategies: session.slots.map((slot) => ({
        id: slot.id,
        name: slot.strategy.name,
        params: JSON.parse(JSON.stringify(slot.params ?? {})) as { [key: string]: JsonValue },
      })),
      recordings:
        session.recording === undefined
          ? []
          : [{ path: shownPath(session.recording), synthetic: session.synthetic }],
      fillModel: session.fillModel,
      latencyModel: latencyModelOf(session),
      feeModel: {
        name: 'venue',
        description: session.feeDescription ?? 'Fees as the venue charged them on each fill.',
      },
      synthetic: session.synthetic,
      runConfig: session.runConfig,
      assumptions: [
        `A ${session.mode} session against ${session.venue}; positions still open at the end stay open.`,
        `Equity is the kernel’s view (the venue’s account and assets), sampled at most every ${session.sampler.everyMs / 1000} s of the session’s time as events arrive, and at the end; the curve keeps, per bucket, the lowest and highest sample and the equity at the bucket’s last event. The recording’s header states the step, so a backtest of the recording samples at it too.`,
        ...adoptionNotes(session.adoptedPositions ?? []),
        ...(session.assumptions ?? []),
      ],
    },
    orders: session.orders,
    fills: session.fills,
    trades: closed,
    openTrades: open,
    equityCurve: curve,
    prices,
    ...(session.cashFlows === undefined ? {} : { cashFlows: session.cashFlows }),
    ...(session.liquidations === undefined ? {} : { liquidations: session.liquidations }),
    ...(session.algoOrders === undefined ? {} : { algoOrders: session.algoOrders }),
    ...(session.denials === undefined ? {} : { denials: session.denials }),
    ...(session.trailingStops === undefined || session.trailingStops.length === 0
      ? {}
      : { trailingStops: session.trailingStops }),
    metrics: computeMetrics({
      equityCurve: curve,
      trades: closed,
      openTrades: open,
      fills: session.fills,
      // Over every sample, as its backtest measures them: not over the curve its buckets merged.
      drawdown: session.sampler.drawdownFigures(),
      meanEquity: session.sampler.meanEquity(),
      ...sampledPeak(session.sampler),
      buyAndHold: {
        prices,
        namedSyms: symsNamedBy(session.slots, instrumentSyms),
        instrumentSyms,
      },
      // The basis its backtest takes: 252 trading days for US equities, not crypto's 365.
      annualization: runAnnualizationOf(session.instruments, session.sampler.bucketMs),
      contractSizeOf,
      ...(session.liquidations === undefined ? {} : { liquidations: session.liquidations }),
      ...(session.cashFlows === undefined ? {} : { cashFlows: session.cashFlows }),
      ...(session.accountCurrency === undefined ? {} : { accountCurrency: session.accountCurrency }),
    }),
  };
}

/** The highest equity sampled, when the session sampled any. */
function sampledPeak(sampler: EquitySampler): { equityPeak?: Dec } {
  const equityPeak = sampler.equityPeak();
  return equityPeak === undefined ? {} : { equityPeak };
}

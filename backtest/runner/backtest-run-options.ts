import type { IntentGate, StrategyRejection, StrategySlot } from '../../core/kernel/index.ts';
import type { Dec, InstrumentSpec, KeelEvent } from '../../core/model/index.ts';
import type { RecordDecoder, RecordingWarning } from '../recording/index.ts';
import type { AnnualizationBasis, JsonValue } from '../report/index.ts';
import type { FillModelName, FillModelOptions, LatencyOptions, SimVenueOptions } from '../sim/index.ts';
import type { BacktestWarmUpOptions } from './backtest-warm-up.ts';
import type { FlatCommission } from './commission.ts';
import type { ProgressReporter } from './progress-reporter.ts';
import type { ReplaySource } from './replay-source.ts';

/** Everything a backtest run is made of. */
export interface BacktestRunOptions {
  /** Title of the report. */
  readonly title?: string;
  /**
   * Session recordings to replay, merged by receive time: paths, or OHLCV CSVs read as
   * `keel import-csv` reads them (`{ input, sym, zone?, interval?, ... }`), each bar received at
   * its close, with no recording written.
   */
  readonly recordings: readonly ReplaySource[];
  /**
   * Turns a recorded venue message into events: the venue's wire -> model mapping, which
   * config/ wires in (backtest/ cannot import core/venue). Only market events are replayed:
   * recorded User Data is dropped, the simulated venue makes its own.
   */
  readonly decode: RecordDecoder<KeelEvent>;
  readonly instruments: readonly InstrumentSpec[];
  readonly strategies: readonly StrategySlot[];
  /**
   * The risk gate every intent passes (config/ builds it from the risk limits). It serves this run
   * only: it keeps the run's kill-switch trip and rate buckets (a later run's virtual time restarts,
   * so they would never refill), so `runBacktest` throws `RiskGateReusedError` for a gate that
   * already served a run or is serving one. Make a gate per run, e.g. `{ ...base, gate: new
   * RiskGate(limits) }` in a parameter grid. The run stops listening to the gate when it ends. A
   * run that failed before it started its strategies (a recording it could not open, a window
   * without events) leaves the gate free for the corrected retry.
   */
  readonly gate: IntentGate;
  /** Starting cash in `settleAsset`. */
  readonly startingCash: Dec;
  /** The account currency; default USDT. */
  readonly settleAsset?: string;
  /**
   * Coins held from the start besides the cash (`{ ETH: D(10) }`): base coins of the run's spot
   * or margin instruments, each valued at the first price the data gives an instrument trading it
   * against `settleAsset` (`starting-coins.ts`); the starting equity, and so the return, count them.
   */
  readonly startingCoins?: Readonly<Record<string, Dec>>;
  /**
   * A flat commission replacing every instrument's maker/taker schedule: a rate of notional,
   * a fixed amount per fill or per order, or a mix (equities). Omitted: the instruments' own schedules.
   */
  readonly commission?: FlatCommission;
  /**
   * Where the instruments' fee rates come from, for the report: their own schedules (default), or
   * flat rates for every instrument already written into `instruments` (config `backtest.fees`
   * model `flat`).
   */
  readonly feeSchedule?: 'instrument' | 'flat';
  /**
   * The sub-portfolio the run trades in (config `strategies[].portfolio`), named in the report's
   * fee description with its markup (`sim.subPortfolioMarkup`); omitted: the main portfolio.
   */
  readonly subPortfolio?: string;
  /** Fill model; default `bar` when every recording holds only bars, else `queue`. */
  readonly fillModel?: FillModelOptions | FillModelName;
  /** Latency legs; the simulated venue's default when omitted. */
  readonly latency?: LatencyOptions;
  /** Further simulated-venue settings (leverage, margin, loans, position mode). */
  readonly sim?: Omit<
    SimVenueOptions,
    'instruments' | 'fillModel' | 'latency' | 'startingBalances' | 'random'
  >;
  /**
   * Close what is still open at the end: once the strategies have seen every event, a market
   * order per position fills at its sym's last known price (on bars the last close, as
   * backtesting.py does; on quotes and trades the last quote or trade), fees included.
   * Default true.
   */
  readonly closeAtEnd?: boolean;
  /** Seed of the run's randomness (latency jitter); default 1. */
  readonly seed?: number;
  /**
   * Keep a derived binary cache of each recording's decoded market events next to it and replay
   * from it while it is valid (same source size and mtime or SHA-256, same `decoderId`), which
   * skips JSON parsing and decoding. The events, and so the results, are the same either way.
   * Omitted: no cache.
   */
  readonly eventCache?: { readonly decoderId: string };
  /**
   * Replay only the events in [from, to) (epoch ms; either end open when omitted): a bar by its
   * open time (openTime >= from and openTime < to, so daily bars from 2024-01-05 start with the
   * bar that opened on 01-05, and the bar opening at `to` is left out), any other event by its
   * receive time. Picked after decoding and after the event cache, which so holds the whole
   * recording and serves every window: for quotes and trades, the same events as a decoder
   * skipping the records received outside the window. An end that is not a finite time is a
   * RangeError.
   */
  readonly window?: { readonly from?: number; readonly to?: number };
  /**
   * Warm the strategies up before they trade: the first `periodMs` of the replay (or, with a
   * window start, the `periodMs` of the recordings before it) goes to the strategies only, with
   * `ctx.warmingUp` true and every intent denied (`kernel.warmUp`, recorded with the denials);
   * the venue, the equity curve, the metrics and buy & hold start after it. With `alignMs` (a bar
   * interval) the warm-up starts and ends on that grid, so the strategies see exactly
   * `periodMs / alignMs` whole bars of it warming up; when the recordings start inside a bar, that
   * partial bar comes first, flagged `partial` and not counted. Both are positive
   * lengths (a RangeError otherwise); a warm-up that takes every event throws
   * `WarmUpTookEverythingError`. Absent: no warm-up.
   */
  readonly warmUp?: BacktestWarmUpOptions;
  /** Events pushed between two yields to the event loop, a whole number of at least 1; default 1024 (`DEFAULT_BATCH_SIZE`). */
  readonly batchSize?: number;
  /**
   * Smallest event-time distance between equity samples, ms; by default from the recordings' span
   * of event time (1 s up to 2.8 hours, up to 60 000 for a week or more or recordings without a record).
   */
  readonly equitySampleMs?: number;
  /**
   * Most time buckets the equity curve keeps (each: low, high and last equity); wider buckets
   * replace narrower ones beyond it, up to a day wide (so daily returns stay daily): memory stays
   * flat up to that many days holding samples, then grows by one bucket a day. Default 4096.
   */
  readonly equityBuckets?: number;
  /** Annualization basis of the metrics; by default 252 days when every instrument is a US equity, else 365. */
  readonly annualization?: AnnualizationBasis;
  /** Strategy parameters as they should appear in the report (default: each slot's params). */
  readonly reportParams?: Readonly<Record<string, { readonly [key: string]: JsonValue }>>;
  /** Further assumptions to state in the report. */
  readonly assumptions?: readonly string[];
  /**
   * Told the first line of each kind of damage of each recording as the replay meets it (not
   * JSON, not a record, not decodable, a truncated tail): the run skips such lines, and
   * `meta.warnings` says how many of each were skipped and where the first was. Default: a line
   * on stderr.
   */
  readonly onRecordingDamage?: (warning: RecordingWarning) => void;
  /**
   * Cancels the run when aborted: the replay stops at its next batch (`batchSize` events), the
   * strategies are stopped (`onStop` runs; its intents reach no report), everything the run opened
   * is released (recordings and event cache partials, spill files, the progress it showed, its
   * listeners on the gate) and `runBacktest` rejects with `signal.reason` (a DOMException named
   * `AbortError` by default, as Node's own APIs do). A signal aborted before the call rejects before
   * anything is opened, leaving the gate free. An abort once the last batch was replayed does not
   * stop the run's short settlement: the result is returned. Omitted: the run cannot be cancelled.
   */
  readonly signal?: AbortSignal;
  /**
   * Where the run makes its spill directory: a sweep's own, which the sweep removes as it ends
   * with whatever a backtest stopped with its worker thread left there. Default: the OS temporary directory.
   */
  readonly spillIn?: string;
  /** Shows progress; silent when omitted. */
  readonly progress?: ProgressReporter;
  /**
   * Told what a halted async strategy's Promise rejected with (the user's own error behind an
   * "async hook" fault), e.g. to print it. Never part of the result: it comes at a time the
   * run's events do not fix.
   */
  readonly onStrategyRejection?: (rejection: StrategyRejection) => void;
  /**
   * Cancel a strategy's resting orders and algo orders when it is halted by a fault, but the
   * protective ones (reduce-only, take-profit / stop-loss) of its open positions, as a live or
   * paper session does (`risk.cancelOrdersOnFault`); default true.
   */
  readonly cancelOrdersOnFault?: boolean;
  /**
   * Cancel every strategy's resting orders and algo orders when the gate's kill switch trips to
   * HALTED, and those that would add risk when it trips to REDUCING, as a live or paper session
   * does (`risk.killSwitch.cancelOrdersOnHalt`); default true.
   */
  readonly cancelOrdersOnHalt?: boolean;
}

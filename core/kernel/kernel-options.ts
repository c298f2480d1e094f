import type { Observable } from 'rxjs';
import type { ExecutionPort } from '../execution/index.ts';
import type {
  Dec,
  InstrumentSpec,
  MarketEvent,
  StrategyIntent,
  UserEvent,
  VenueStatus,
} from '../model/index.ts';
import type { Portfolio } from '../portfolio/index.ts';
import type { LimitedSym, RiskDecision, RiskView, TradingStatus } from '../risk/index.ts';
import type { StrategyDefinition } from './define-strategy.ts';
import type { CloseOrdering } from './in-flight-closes.ts';
import type { KernelWarmUp } from './kernel-warm-up.ts';
import type { Scheduler } from './scheduler.ts';

/** The risk gate as the kernel uses it: one decision per intent, against the kernel's state. */
export interface IntentGate {
  /**
   * Decides one intent. The kernel also asks about a trailing stop it is to emulate, when it is
   * placed (a placeOrder with `trailingStop`, the MARKET order the stop sends): an approval of
   * that sends nothing, the stop's order is asked about again, without `trailingStop`, when it fires.
   * @param intent - the intent and the strategy that emitted it
   * @param view - the kernel's state
   * @returns approved (with the branded command) or denied (with the check and reason)
   */
  evaluate(intent: StrategyIntent, view: RiskView): RiskDecision;
  /**
   * Optional: an equity observation for the kill switch, made after every fill and account
   * update and on market data at most once per `MARKET_OBSERVATION_MS` of the kernel's time, so a
   * loss limit trips between intents too, on a loss that prices alone make (`RiskGate.observeEquity`).
   * @param now - epoch ms
   * @param equity - portfolio equity
   */
  observeEquity?(now: number, equity: Dec): unknown;
  /**
   * Optional: whether {@link IntentGate.observeEquity} looks at the equity it is given (a gate
   * without a kill switch ignores it). When false, the kernel does not compute equity after each
   * fill, account update and second of market data just to hand it over; absent counts as true.
   * @returns false when equity observations are ignored
   */
  watchesEquity?(): boolean;
  /**
   * Optional: the trading status in force for a strategy (`RiskGate.status`). A run's sweep of a
   * halted strategy's orders reads it, to go on cancelling them while the strategy stays HALTED.
   * @param strategyId - the strategy
   * @returns its status (the stricter of the portfolio's and its own)
   */
  status?(strategyId: string): TradingStatus;
  /**
   * Optional: calls `listener` each time the gate's kill switch trips (`RiskGate.onKillSwitchTrip`),
   * so a run can cancel the strategies' resting orders when trading halts.
   * @param listener - told the trip (its state: HALTED or REDUCING)
   * @returns removes the listener: a run stops listening when it ends
   */
  onKillSwitchTrip?(listener: (trip: TradingStatus) => void): () => void;
  /**
   * Optional: the syms the gate's per-sym limits name (`RiskGate.limitedSyms`). The kernel
   * refuses to start when one is not among its instruments: that limit would never apply.
   * @returns each named sym with whose limits name it
   */
  limitedSyms?(): readonly LimitedSym[];
}

/** One strategy in a kernel: a plugin, its id in the run, and its raw parameters. */
export interface StrategySlot {
  /** 1-24 characters of A-Z, a-z, 0-9 and _; unique in the kernel; prefixes its references. */
  readonly id: string;
  // biome-ignore lint/suspicious/noExplicitAny: a kernel runs plugins of any parameter and state types
  readonly strategy: StrategyDefinition<any, any>;
  /** Raw parameters, parsed by the plugin's zod schema at construction. */
  readonly params?: unknown;
  /**
   * The plugin module's file, when the strategy came from one: faults name it where no stack
   * frame can (a hook that returned a value that is not intents).
   */
  readonly source?: string;
}

/** Everything a kernel is built from; the composition root (config/) fills it per mode. */
export interface KernelOptions {
  /**
   * Every instrument the run may trade or see. Strategies receive market data (quotes, trades,
   * bars) of these syms only, whatever else the feed carries; the state still folds the rest.
   */
  readonly instruments: readonly InstrumentSpec[];
  /**
   * Market data. One observable is consumed as it arrives (live feeds arrive in time order);
   * an array of recorded feeds is merged by time first (see `mergeByTime`).
   */
  readonly market: Observable<MarketEvent> | readonly Observable<MarketEvent>[];
  /** User Data; defaults to `execution.events`. */
  readonly user?: Observable<UserEvent>;
  /**
   * Connection changes of the venue's streams (a live or paper session); none in a backtest.
   * Subscribed to with User Data. While the private stream is down, and until the reconciliation
   * after it is back has finished, new orders and modifies are denied (`kernel.venueDisconnected`);
   * every change is delivered to the strategies' `onVenueStatus`.
   */
  readonly venueStatus?: Observable<VenueStatus>;
  /** Where approved commands go: the simulated venue or the live venue adapter. */
  readonly execution: ExecutionPort;
  /** The risk gate every intent passes. */
  readonly gate: IntentGate;
  /** Virtual (backtest) or wall (live, paper) time. */
  readonly scheduler: Scheduler;
  readonly strategies: readonly StrategySlot[];
  /**
   * Keel's own ledger, fed with every fill. When given, equity and gross exposure (for the
   * risk gate and `ctx.equity()`) come from it; otherwise from the venue's account and positions.
   */
  readonly portfolio?: Portfolio;
  /**
   * A short run tag (0-8 of A-Z, a-z, 0-9) put into generated references, so a restarted live
   * run does not reuse the previous run's clientOrderIds. Empty (default) in backtests.
   */
  readonly runId?: string;
  /**
   * Warm the strategies up before they trade (see {@link KernelWarmUp}): they see market data
   * through their hooks with `ctx.warmingUp` true and every intent denied (`kernel.warmUp`).
   * Absent: they trade from the first event.
   */
  readonly warmUp?: KernelWarmUp;
  /**
   * The time from which the run's market data is whole (a backtest without warm-up: its window's
   * start, else its recordings' start): bars watched as the run starts count as watched from
   * there, so a first bar opening there is not flagged `partial` because its first trade came
   * after its open. Absent: bars count as watched from the time `watchBars` is called.
   */
  readonly barsWholeFrom?: number;
  /**
   * On bar data, how long after the kernel got a sym's bar an emulated trailing stop made then
   * still meets the sym's next bar from its open, ms: the allowance the venue gives a reaction to
   * the previous bar (on Keel's simulated and paper venues, the latency model's longest
   * market-data or User Data delay), so an emulated stop and a venue algo order made at the same
   * moment meet the same bars. Default 0 (live): a stop made by the time the kernel got the
   * previous bar, or in reaction to that bar or to a fill reported with it, meets the next one
   * (`TrailingStopEmulator.onBar`).
   */
  readonly barReactionMs?: number;
  /**
   * Whether the venue makes the close orders of a position leg in the order the kernel sent the
   * closes (see `CloseOrdering`): `sendOrder` for Keel's simulated venue (a backtest) and the
   * paper venue, where an order two strategies' closes of one leg may have made is the
   * first-sent close's; `unknown` (default: a live venue, whose spec does not say) gives it to
   * neither.
   */
  readonly closeOrdering?: CloseOrdering;
  /**
   * Whether the events the venue adapter makes itself (`stampedByKeel`) are stamped on the venue's
   * own clock: true for a paper session, whose adapter reads the paper venue's time, as Keel's
   * simulated venue stamps its own events in a backtest; they then close bars as the venue's
   * events do. Default false (live): they carry Keel's estimate of the venue's clock, which may run
   * ahead of it by the estimate's error (up to the second of the `Date` header it is learnt from),
   * so they close no bar: one would close early, and the trades the venue stamped before its end
   * that come after it would be left out as late.
   */
  readonly keelStampsOnVenueClock?: boolean;
}

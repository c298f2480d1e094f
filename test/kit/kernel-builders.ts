import { type Observable, Subject } from 'rxjs';
import type { ExecutionPort } from '../../core/execution/index.ts';
import type {
  CloseOrdering,
  IntentDenied,
  IntentGate,
  KernelWarmUp,
  StrategyFault,
  StrategyRejection,
  StrategySlot,
  VirtualScheduler,
} from '../../core/kernel/index.ts';
import { Kernel, virtualScheduler } from '../../core/kernel/index.ts';
import type { InstrumentSpec, MarketEvent, VenueStatus } from '../../core/model/index.ts';
import type { Portfolio } from '../../core/portfolio/index.ts';
import { RiskGate } from '../../core/risk/index.ts';
import { type InMemoryVenue, inMemoryVenue } from './in-memory-venue.ts';
import { anInstrument } from './instrument-builders.ts';
import { BTC, ETH } from './kernel-events.ts';
import { aRecordingPort, type RecordingExecutionPort } from './recording-execution-port.ts';

/** A kernel wired for tests, with handles on its inputs and outputs. */
export interface KernelRig {
  readonly kernel: Kernel;
  readonly venue: InMemoryVenue;
  readonly scheduler: VirtualScheduler;
  /** Push market events with `market.next(event)`. */
  readonly market: Subject<MarketEvent>;
  /** Every denial the kernel reported. */
  readonly denials: IntentDenied[];
  /** Every strategy fault, as `id:where:message`. */
  readonly faults: string[];
  /** Every strategy fault as the kernel reported it. */
  readonly faultRecords: StrategyFault[];
  /** Every rejection of a halted strategy's unawaited Promise, as the kernel reported it. */
  readonly rejections: StrategyRejection[];
}

/** A kernel rig on a port that records commands and answers only what the test emits. */
export interface RecordingKernelRig extends Omit<KernelRig, 'venue'> {
  /** The port: `port.emit(event)` is the venue speaking, `port.submitted` what was sent. */
  readonly port: RecordingExecutionPort;
}

/** What a test may change about the kernel {@link aKernelRig} builds. */
export interface KernelRigOptions {
  /** The risk gate; default the real gate with default limits. */
  readonly gate?: IntentGate;
  /** Virtual start time, epoch ms; default 0. */
  readonly start?: number;
  /** The run id the kernel stamps. */
  readonly runId?: string;
  /** The instruments; default BTC and ETH perpetuals (tick 0.1, lot 0.001). */
  readonly instruments?: readonly InstrumentSpec[];
  /** A portfolio for the kernel to keep (and mark) as it folds fills; default none. */
  readonly portfolio?: Portfolio;
  /**
   * Passed to `kernel.start`: the strategies start once it settles, User Data meanwhile is only
   * folded (a live session's first reconciliation). Default: they start at once.
   */
  readonly strategiesAfter?: Promise<unknown>;
  /** Connection changes of the venue's streams (a live session's); default none. */
  readonly venueStatus?: Observable<VenueStatus>;
  /** A warm-up for the kernel; default none. */
  readonly warmUp?: KernelWarmUp;
  /** Whether the venue makes close orders in the order the closes were sent; default the kernel's (`unknown`). */
  readonly closeOrdering?: CloseOrdering;
}

/**
 * Builds and starts a kernel on virtual time over BTC and ETH perpetuals (tick 0.1, lot 0.001)
 * unless other instruments are given, with the in-memory venue filling market orders at the last
 * price pushed for the sym (100 before any), and the real risk gate (default limits unless a gate
 * is given).
 * @param strategies - the strategies to run
 * @param options - gate, start time, run id, instruments, portfolio, what the strategies wait for
 * @returns the rig
 */
export function aKernelRig(strategies: readonly StrategySlot[], options: KernelRigOptions = {}): KernelRig {
  const scheduler = virtualScheduler(options.start ?? 0);
  const market = new Subject<MarketEvent>();
  const lastPrice = new Map<string, number>();
  market.subscribe((event) => {
    if (event.kind === 'quote') lastPrice.set(event.sym, (event.bid + event.ask) / 2);
    if (event.kind === 'trade') lastPrice.set(event.sym, event.price);
  });
  const venue = inMemoryVenue(scheduler.clock, (sym) => lastPrice.get(sym) ?? 100);
  return { ...startedRig(strategies, options, scheduler, market, venue), venue };
}

/**
 * Builds and starts a kernel like {@link aKernelRig}, but on a recording port that answers
 * nothing by itself: a test sees the kernel's in-flight states (PENDING_NEW...) and plays the
 * venue with `port.emit`.
 * @param strategies - the strategies to run
 * @param options - gate, start time, run id, instruments, portfolio, what the strategies wait for
 * @returns the rig
 */
export function aRecordingKernelRig(
  strategies: readonly StrategySlot[],
  options: KernelRigOptions = {},
): RecordingKernelRig {
  const port = aRecordingPort();
  const scheduler = virtualScheduler(options.start ?? 0);
  return { ...startedRig(strategies, options, scheduler, new Subject<MarketEvent>(), port), port };
}

function startedRig(
  strategies: readonly StrategySlot[],
  options: KernelRigOptions,
  scheduler: VirtualScheduler,
  market: Subject<MarketEvent>,
  execution: ExecutionPort,
): Omit<KernelRig, 'venue'> {
  const kernel = new Kernel({
    instruments: options.instruments ?? [anInstrument(BTC), anInstrument(ETH)],
    market: market.asObservable(),
    execution,
    gate: options.gate ?? new RiskGate(),
    scheduler,
    strategies,
    ...(options.runId === undefined ? {} : { runId: options.runId }),
    ...(options.portfolio === undefined ? {} : { portfolio: options.portfolio }),
    ...(options.venueStatus === undefined ? {} : { venueStatus: options.venueStatus }),
    ...(options.warmUp === undefined ? {} : { warmUp: options.warmUp }),
    ...(options.closeOrdering === undefined ? {} : { closeOrdering: options.closeOrdering }),
  });
  const denials: IntentDenied[] = [];
  const faults: string[] = [];
  const faultRecords: StrategyFault[] = [];
  const rejections: StrategyRejection[] = [];
  kernel.denials.subscribe((d) => denials.push(d));
  kernel.faults.subscribe((f) => {
    faults.push(`${f.strategyId}:${f.where}:${String(f.error)}`);
    faultRecords.push(f);
  });
  kernel.rejections.subscribe((r) => rejections.push(r));
  void kernel.start(options.strategiesAfter);
  return { kernel, scheduler, market, denials, faults, faultRecords, rejections };
}

import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { NEVER, Subject } from 'rxjs';
import { Kernel, seededRandom, virtualScheduler } from '../../core/kernel/index.ts';
import type { BarEvent, Dec, MarketEvent } from '../../core/model/index.ts';
import {
  type BacktestResult,
  SpillDirectory,
  type StrategyFaultRecord,
  strategyFaultRecord,
} from '../report/index.ts';
import {
  createSimVenue,
  DEFAULT_LATENCY,
  type FillModelName,
  type FillModelOptions,
  longestViewDelay,
} from '../sim/index.ts';
import { assembleResult } from './assemble-result.ts';
import type { BacktestRunOptions } from './backtest-run-options.ts';
import {
  type BacktestWarmUp,
  feedWarmUp,
  WarmUpTookEverythingError,
  warmUpEnd,
  warmUpShortfall,
  windowWithWarmUp,
} from './backtest-warm-up.ts';
import { barOverlapWarnings } from './bar-overlap-warning.ts';
import { withCommission } from './commission.ts';
import { defaultFillModelFor, fillModelWarnings } from './default-fill-model.ts';
import { denialRecordOf } from './denial-records.ts';
import { earlySpanWorkWarnings } from './early-span-work-warning.ts';
import {
  closeAfterLastEvent,
  deliverInFlight,
  END_SETTLE_MS,
  endOfRunOwner,
  runEndOf,
} from './end-of-run-close.ts';
import { EndOfRunCloseOutcomes } from './end-of-run-close-outcomes.ts';
import { equitySampleStepFor } from './equity-sample-step.ts';
import { EquitySampler } from './equity-sampler.ts';
import { claimGate } from './gate-claim.ts';
import { seedKernelWithBalances } from './kernel-balances.ts';
import { KillSwitchTrips } from './kill-switch-trips.ts';
import { lateBarInputWarnings } from './late-bar-input-warnings.ts';
import { LateExecutionPort } from './late-execution-port.ts';
import { openRunRecords } from './open-run-records.ts';
import { outsideWindowText } from './outside-window-spans.ts';
import { perpFeedsOf } from './perp-assumptions.ts';
import { recordedSampleStep } from './recorded-sample-step.ts';
import { replaySourceName } from './replay-source.ts';
import { openReplaySources } from './replay-sources.ts';
import { spanOf } from './replay-window.ts';
import { checkRunOptions } from './run-option-checks.ts';
import { RunTeardown } from './run-teardown.ts';
import { setupWarnings } from './setup-warnings.ts';
import { equitySources, startingCoinValues } from './starting-coins.ts';
import { StrategyDelivery } from './strategy-delivery.ts';
import { unattributedCloseWarnings } from './unattributed-close-warnings.ts';
import { unbilledInterestWarning } from './unbilled-interest.ts';
import { unclosedWarnings } from './unclosed-positions.ts';
import { unfundedHoldWarnings } from './unfunded-holds.ts';
import { sweepUnmanagedOrders } from './unmanaged-order-sweeps.ts';
import { unsentTimeOrderWarnings } from './unsent-time-orders.ts';
import { VenueEventRecorder } from './venue-event-recorder.ts';

/**
 * Runs a backtest: replays the recordings through the simulated venue and the kernel (with its
 * strategies and risk gate) on virtual time, and returns orders, fills, round-trip trades, the
 * equity curve and the metrics. The same inputs give the same result, byte for byte once
 * written. Events go in batches with a yield to the event loop between batches, so progress
 * output and signals are served during long runs. Orders and algo orders (once final), fills,
 * round trips and denied intents go to spill files in a temporary directory of the run's own as
 * they happen, so memory stays flat however long the run: the result reads them back when
 * iterated, and its `dispose()` removes the directory (so does the process's exit; a failed run
 * stops its strategies, closes and removes it at once, closes the recordings it read and stops the
 * progress it showed). The gate serves this run only (see `BacktestRunOptions.gate`): the run stops
 * listening to it when it ends. `options.signal` cancels the run at its next batch, releasing the
 * same (see `BacktestRunOptions.signal`).
 * @param options - recordings, decoder, instruments, strategies, gate, cash and models
 * @returns the result; call its `dispose()` when done with it
 * @throws Error when a recording cannot be read (UnreadableRecordingError: malformed lines and no event) or a strategy's parameters are invalid;
 *   RangeError naming an option out of its range (see `checkRunOptions`); EmptyReplayWindowError
 *   when the window holds no event of the recordings; WarmUpTookEverythingError when the warm-up
 *   leaves no event to trade on; RiskGateReusedError when the gate served or is serving another run;
 *   `options.signal.reason` (an `AbortError` by default) when the signal aborted it
 */
export async function runBacktest(options: BacktestRunOptions): Promise<BacktestResult> {
  options.signal?.throwIfAborted();
  if (options.recordings.length === 0) throw new Error('backtest: no recordings given');
  checkRunOptions(options);
  const teardown = new RunTeardown();
  // Undone last: the gate is spent once everything of the run let go of it.
  const claim = claimGate(options.gate);
  teardown.add(claim.end);
  const progress = options.progress === undefined ? undefined : teardown.progress(options.progress);
  try {
    const dir = new SpillDirectory('keel-backtest-', options.spillIn);
    const runOptions = progress === undefined ? options : { ...options, progress };
    return await runInto(dir, runOptions, teardown, claim.started).catch(async (error: unknown) => {
      // What the run opened lets go first (its strategies may still write a record as they stop),
      // then the spill files still being written are closed and removed.
      await teardown.run();
      dir.dispose();
      throw error;
    });
  } finally {
    await teardown.run();
  }
}

async function runInto(
  dir: SpillDirectory,
  options: BacktestRunOptions,
  teardown: RunTeardown,
  started: () => void,
): Promise<BacktestResult> {
  const {
    headers,
    firstBatch: opened,
    readAhead: readNext,
    damage,
    overlaps,
    gaps,
    ends,
    damagedCaches,
    csvWarnings,
    outside,
    close,
  } = await openReplaySources(options);
  teardown.add(close);
  const sourceNames = options.recordings.map(replaySourceName);
  // Every batch read is a point where a cancelled run stops, the warm-up's and the coins' included.
  const readAhead = (): Promise<readonly MarketEvent[] | undefined> => {
    options.signal?.throwIfAborted();
    return readNext();
  };
  options.signal?.throwIfAborted();
  let firstBatch = opened;
  const instruments =
    options.commission === undefined
      ? options.instruments
      : options.instruments.map((spec) => withCommission(spec, options.commission ?? {}));
  const contractSizes = new Map<string, Dec>(instruments.map((spec) => [spec.sym, spec.contractSize]));
  const records = openRunRecords(dir, contractSizes);
  const settleAsset = options.settleAsset ?? 'USDT';
  const startingBalances = { [settleAsset]: options.startingCash, ...options.startingCoins };
  // The kernel is built before the venue: a warm-up runs the strategies before trading starts.
  // The orders a strategy sends in one hook call, alike but for their quantity, are one order
  // sliced for the trade list, as in a paper or live session (see EntryBatches).
  const port = new LateExecutionPort((command) => {
    if (command.intent.kind === 'placeOrder')
      records.batches.placed(command.strategyId, command.intent, command.hookCall);
  });
  const recordingsStart = Math.min(...headers.map((h) => h.startTime));
  const first = firstBatch[0]?.recvTs ?? recordingsStart;
  // A windowed run starts at the window's start: the bars it builds of a period opening there are whole.
  const from = options.warmUp === undefined ? options.window?.from : undefined;
  const scheduler = virtualScheduler(from === undefined ? first : Math.min(first, from));
  // The warm-up's history and the end of the events go through the market feed; the run's events
  // reach the kernel by its push (see StrategyDelivery), User Data included: the kernel must not
  // take the venue's events from the port, undelayed.
  const market = new Subject<MarketEvent>();
  const kernel = new Kernel({
    instruments,
    market,
    user: NEVER,
    execution: port,
    gate: options.gate,
    scheduler,
    strategies: options.strategies,
    // The venue's bar cutoff allows a reaction the latency's delay: the emulated stops' too.
    barReactionMs: longestViewDelay(options.latency ?? DEFAULT_LATENCY),
    // The simulated venue runs commands in the order sent, a close making its orders as it runs.
    closeOrdering: 'sendOrder',
    // Bars opening where the data is whole are not partial; with a warm-up, that is where it reads from.
    barsWholeFrom:
      options.warmUp === undefined
        ? (options.window?.from ?? recordingsStart)
        : (windowWithWarmUp(options.window, options.warmUp)?.from ?? recordingsStart),
    ...(options.warmUp === undefined ? {} : { warmUp: { periodMs: options.warmUp.periodMs } }),
  });
  // A run that fails stops its strategies too (their onStop runs, the feeds and timers let go).
  teardown.add(() => kernel.stop());
  const faults: StrategyFaultRecord[] = [];
  kernel.faults.subscribe((fault) => faults.push(strategyFaultRecord(fault)));
  const trips = new KillSwitchTrips(options.gate);
  teardown.add(() => trips.stop());
  teardown.add(sweepUnmanagedOrders(kernel, options, trips));
  kernel.denials.subscribe((denial) => records.denials.append(denialRecordOf(denial)));
  kernel.trailingStops.subscribe((stop) => records.trailingStops.observe(stop));
  if (options.onStrategyRejection !== undefined) kernel.rejections.subscribe(options.onStrategyRejection);
  let finished: Promise<void> | undefined;
  let warmedUp: BacktestWarmUp | undefined;
  if (options.warmUp !== undefined && firstBatch[0] !== undefined) {
    const until = warmUpEnd(options.window, options.warmUp, firstBatch[0], recordingsStart);
    started();
    // Funded as it will trade, from onStart on: sizing on equity during the warm-up gives what it
    // will give after. Folded before the strategies start, as a live session's first reconciliation.
    const funded = createSimVenue({ ...options.sim, instruments, startingBalances, random: seededRandom(1) });
    await seedKernelWithBalances(kernel, funded, firstBatch[0].recvTs);
    finished = kernel.start();
    const fed = await feedWarmUp(
      firstBatch,
      readAhead,
      until,
      (event) => market.next(event),
      options.warmUp.alignMs,
      options.warmUp.periodMs,
    );
    if (fed.rest === undefined)
      throw new WarmUpTookEverythingError(options.warmUp.periodMs, until, fed.events);
    // Up to the end itself: a bar built of the warm-up's trades closing there is the warm-up's last.
    kernel.advanceTime(until);
    kernel.endWarmUp();
    firstBatch = fed.rest;
    warmedUp = {
      periodMs: options.warmUp.periodMs,
      ...(options.warmUp.alignMs === undefined ? {} : { alignMs: options.warmUp.alignMs }),
      from: fed.first,
      until,
      events: fed.events,
      ...(options.warmUp.alignMs === undefined ? {} : { bars: fed.bars }),
    };
  }
  const startTime = firstBatch[0]?.recvTs ?? Math.min(...headers.map((h) => h.startTime));
  const spanMs = await spanOf(options, startTime, ends);
  const sampleMs = options.equitySampleMs ?? recordedSampleStep(headers) ?? equitySampleStepFor(spanMs);
  const coins = await startingCoinValues(
    options.startingCoins ?? {},
    options.instruments,
    settleAsset,
    firstBatch,
    readAhead,
  );
  const queued = [...coins.batches];

  const fillModel: FillModelOptions | FillModelName = options.fillModel ?? defaultFillModelFor(firstBatch);
  const sim = createSimVenue({
    ...options.sim,
    instruments,
    fillModel,
    ...(options.latency === undefined ? {} : { latency: options.latency }),
    startingBalances,
    random: seededRandom(options.seed ?? 1),
    startTime,
    // Interest taken out of a spot holding leaves the trade list's open lots too.
    onHoldingSpent: (spent) => records.book.spend(spent),
  });
  port.bind(sim);

  const delivery = new StrategyDelivery(kernel, sim);
  const barModel = sim.fillModelName === 'bar';
  // Ownership is the kernel's (recorded before the venue answers; a venue-made order inherits its
  // parent's); the end-of-run close is Keel's own. A position close's order, which the venue names,
  // is its close command's: the sim says which as it makes the order, when a kernel behind the
  // User Data latency does not know it yet.
  const ownerOf = (ref: string): string | undefined => {
    const owner = kernel.state.ownerOf(ref) ?? endOfRunOwner(ref);
    if (owner !== undefined) return owner;
    const closeCommand = sim.closeCommandOf(ref);
    return closeCommand === undefined ? undefined : kernel.state.ownerOf(closeCommand);
  };
  // One subscription: the run's records first, then the strategies' delivery (which may react at
  // once). Once the strategies stopped, the kernel only folds what the venue says, at once: the
  // end-of-run close is judged on the venue's state, fills of orders sent at the end included.
  const recorder = new VenueEventRecorder(records, ownerOf);
  let settling = false;
  sim.events.subscribe((event) => {
    recorder.record(event);
    if (settling) kernel.push(event);
    else delivery.fromVenue(event);
  });
  // Events the venue has seen: starting coins count at their first price until it has seen it.
  let seen = 0;
  const equity = equitySources(sim, coins.values, () => seen);
  const sampler = new EquitySampler(sampleMs, equity.exact, {
    estimate: equity.estimate,
    snapshot: equity.snapshot,
    ...(options.equityBuckets === undefined ? {} : { maxBuckets: options.equityBuckets }),
  });
  if (finished === undefined) started();
  // Funded before the strategies start, so onStart reads the account as paper and live do.
  await seedKernelWithBalances(kernel, sim, startTime);
  finished ??= kernel.start();
  sampler.start(startTime);

  options.progress?.start(spanMs);
  let handled = 0;
  let last: MarketEvent | undefined;
  // Each sym's last closed bar: the price the end-of-run close fills at on the bar fill model.
  const lastBars = new Map<string, BarEvent>();
  let batch: readonly MarketEvent[] | undefined = firstBatch;
  while (batch !== undefined) {
    for (const event of batch) {
      // Before anything of the event's time happens: the sample due at the previous time sees
      // every event of that time (several syms' bars or quotes), and nothing after it.
      sampler.beforeEvent(event.recvTs);
      // The venue matches a closed bar against its whole span: its timers inside it wait for the bar.
      delivery.catchUp(
        event.recvTs,
        barModel && event.kind === 'bar' && event.closed
          ? Math.min(event.openTime, event.recvTs)
          : event.recvTs,
      );
      sim.onMarket(event);
      seen++;
      delivery.afterVenue(event);
      sampler.observe(event);
      if (event.kind === 'bar' && event.closed) lastBars.set(event.sym, event);
    }
    last = batch[batch.length - 1] ?? last;
    handled += batch.length;
    options.progress?.update(handled, (last?.recvTs ?? startTime) - startTime);
    await yieldToEventLoop();
    batch = queued.shift() ?? (await readAhead());
  }
  // The last sample and bucket close are the equity at the last event, before what arrives later.
  sampler.endOfEvents();
  delivery.flush();
  // Strategies stop before the venue settles, so nothing they do reacts to the closing fills.
  market.complete();
  await finished;
  kernel.stop();
  settling = true;
  let unsent: string[] = [];
  const closeOutcomes = new EndOfRunCloseOutcomes();
  let unbilled: string | undefined;
  if (last !== undefined) {
    // The run ends at its last event: commands on their way still arrive and are answered, but no
    // venue timer due after it fires (a paper session stopped then pays no later funding either).
    const end = last.recvTs;
    // Commands on their way arrive first, so both modes warn of the same TIME orders never sent
    // and the close's first round closes what they opened.
    deliverInFlight(sim, end + END_SETTLE_MS, end);
    unsent = unsentTimeOrderWarnings((await sim.snapshot()).openOrders, end);
    if (options.closeAtEnd ?? true) {
      await closeAfterLastEvent(kernel, sim, options.gate, end, lastBars, {
        denied: (denial) => {
          records.denials.append(denial);
          closeOutcomes.denied(denial);
        },
        sent: (sym) => closeOutcomes.sent(sym),
      });
    } else {
      sim.advanceTo(end + END_SETTLE_MS, end);
    }
    // The last sample is taken after the venue settled, so the closing fills and fees are in it,
    // and stamped when they were booked, so the run's end covers them.
    sampler.sample(runEndOf(end, recorder.lastFillTs, sim.statement()));
    unbilled = unbilledInterestWarning(sim.startedHourInterest());
  }
  options.progress?.stop();

  const result = assembleResult(
    options,
    headers,
    instruments,
    sim,
    kernel.state,
    records,
    sampler,
    spanMs,
    settleAsset,
    coins.values,
    warmedUp,
    closeOutcomes.refusals(),
  );
  const shortWarmUp = warmedUp === undefined ? undefined : warmUpShortfall(warmedUp, options.warmUp?.alignMs);
  const rejections = recorder.rejectionWarning(result.orders.length);
  const loanRefused = recorder.loanRefusalWarning();
  const warnings = [
    // Every recording was read to its end: the tally is whole.
    ...damage.warnings(sourceNames),
    ...damagedCaches,
    ...csvWarnings,
    ...overlaps.warnings(sourceNames),
    ...gaps.warnings(sourceNames),
    ...setupWarnings(
      kernel,
      options.strategies,
      instruments.map((spec) => spec.sym),
      undefined,
      outsideWindowText(outside, options.window),
    ),
    ...lateBarInputWarnings(kernel),
    ...unattributedCloseWarnings(kernel),
    ...fillModelWarnings(
      sim.fillModelName,
      options.fillModel === undefined,
      kernel.state,
      recorder.orderedSyms,
    ),
    ...(rejections === undefined ? [] : [rejections]),
    ...barOverlapWarnings(sim.barOverlaps()),
    ...earlySpanWorkWarnings(sim.earlySpanWork()),
    ...(loanRefused === undefined ? [] : [loanRefused]),
    ...unsent,
    ...trips.warnings(),
    ...(shortWarmUp === undefined ? [] : [shortWarmUp]),
    ...((options.closeAtEnd ?? true) ? unclosedWarnings(result.openTrades, closeOutcomes.refusals()) : []),
    ...(unbilled === undefined ? [] : [unbilled]),
    ...unfundedHoldWarnings(
      instruments,
      perpFeedsOf(kernel.state, result.cashFlows, sim.fillModelName === 'bar'),
      sim.unfundedHolds(),
    ),
  ];
  return { ...result, meta: { ...result.meta, warnings }, faults, dispose: () => dir.dispose() };
}

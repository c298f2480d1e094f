import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Subject } from 'rxjs';
import { type IntentGate, Kernel, seededRandom, virtualScheduler } from '../../core/kernel/index.ts';
import type {
  BarEvent,
  Dec,
  Execution,
  InstrumentSpec,
  KeelEvent,
  MarketEvent,
  Order,
  UserEvent,
} from '../../core/model/index.ts';
import { ONE } from '../../core/model/index.ts';
import {
  mergeByRecvTs,
  readEventBatches,
  readLastRecvTs,
  readSessionHeader,
  type SessionHeader,
} from '../recording/index.ts';
import {
  type BacktestResult,
  CostTally,
  computeMetrics,
  EXECUTION_CODEC,
  type JsonValue,
  LiquidationJournal,
  type OpenTrade,
  type RecordingDescription,
  type RecordLog,
  ROUND_TRIP_CODEC,
  RoundTripBook,
  type RoundTripTrade,
  SpillDirectory,
  SpillLog,
  type StrategyFaultRecord,
  strategyFaultRecord,
  TradeTally,
} from '../report/index.ts';
import { createSimVenue, type FillModelName, type FillModelOptions, type SimVenue } from '../sim/index.ts';
import type { BacktestRunOptions } from './backtest-run-options.ts';
import { barOverlapWarnings } from './bar-overlap-warning.ts';
import { cashFlowRecordsOf } from './cash-flow-records.ts';
import { fixedCommissionText, withCommission } from './commission.ts';
import { defaultAnnualizationOf } from './default-annualization.ts';
import { defaultFillModelFor, defaultFillModelWarnings } from './default-fill-model.ts';
import { EmptyReplayWindowError } from './empty-replay-window.ts';
import { closeEverything, closingBar } from './end-of-run-close.ts';
import { equitySampleStepFor } from './equity-sample-step.ts';
import { EquitySampler } from './equity-sampler.ts';
import { cachedMarketEvents } from './event-cache.ts';
import { OrderJournal } from './order-journal.ts';
import {
  isLoanRefusal,
  loanRefusalWarning,
  refusedLoanText,
  rejectedOrderText,
  rejectionWarning,
} from './rejection-warning.ts';
import { setupWarnings } from './setup-warnings.ts';
import { StrategyDelivery } from './strategy-delivery.ts';

/** Kinds of market events; recorded User Data is not replayed (the simulated venue makes its own). */
const MARKET_KINDS: ReadonlySet<string> = new Set(['quote', 'trade', 'bar', 'book', 'markPrice', 'gap']);

function marketOnly(
  record: Parameters<BacktestRunOptions['decode']>[0],
  decode: BacktestRunOptions['decode'],
): MarketEvent | readonly MarketEvent[] | null | Error {
  const decoded = decode(record);
  if (decoded === null || decoded instanceof Error) return decoded;
  if (Array.isArray(decoded))
    return (decoded as readonly KeelEvent[]).filter((e): e is MarketEvent => MARKET_KINDS.has(e.kind));
  const event = decoded as KeelEvent;
  return MARKET_KINDS.has(event.kind) ? (event as MarketEvent) : null;
}

/** Receive times of the first and last event read from the recordings, window or not. */
interface RecordedSpan {
  first: number | undefined;
  last: number | undefined;
}

/**
 * The time an event is placed in the window by: a bar's open time (a bar is in [from, to) when it
 * opened in it, so `from` is the open of the first bar replayed and a bar opening at `to` is the
 * first one left out, whatever its interval), any other event's receive time.
 */
function windowTimeOf(event: MarketEvent): number {
  return event.kind === 'bar' ? event.openTime : event.recvTs;
}

/** The events of a source inside the window ({@link windowTimeOf}); all of them without one. */
async function* within(
  source: AsyncIterable<readonly MarketEvent[]>,
  window: BacktestRunOptions['window'],
  span: RecordedSpan,
): AsyncGenerator<readonly MarketEvent[]> {
  if (window === undefined) {
    yield* source;
    return;
  }
  const from = window.from ?? Number.NEGATIVE_INFINITY;
  const to = window.to ?? Number.POSITIVE_INFINITY;
  const inside = (e: MarketEvent): boolean => {
    const t = windowTimeOf(e);
    return t >= from && t < to;
  };
  for await (const batch of source) {
    const first = batch[0];
    const last = batch[batch.length - 1];
    if (first !== undefined && (span.first === undefined || first.recvTs < span.first))
      span.first = first.recvTs;
    if (last !== undefined && (span.last === undefined || last.recvTs > span.last)) span.last = last.recvTs;
    // Read to the end even past the window: an event cache is only kept once its source was read whole.
    // A bar opens before it is received, so only a batch received wholly before `from` is skipped unread.
    if (first === undefined || last === undefined || last.recvTs < from) continue;
    const kept = batch.every(inside) ? batch : batch.filter(inside);
    if (kept.length > 0) yield kept;
  }
}

/**
 * Event-time span of the replay: from its first event to the last record of the recordings (read
 * from their tails), cut at the window's end; undefined when a recording's end is not found.
 */
async function spanOf(options: BacktestRunOptions, startTime: number): Promise<number | undefined> {
  const ends = await Promise.all(options.recordings.map((path) => readLastRecvTs(path)));
  let end = Number.NEGATIVE_INFINITY;
  for (const ts of ends) {
    if (ts === undefined) return undefined;
    end = Math.max(end, ts);
  }
  return Math.min(end, options.window?.to ?? Number.POSITIVE_INFINITY) - startTime;
}

/**
 * Why the equity curve on bars shows no dip of an entry fee at the open (Keel's choice, as
 * backtesting.py's bar-close equity): a bar is known only once it closed, and the venue matches it
 * whole, so the sample after it is marked at its close. A sample between the fills at its open and
 * the rest of the bar would need the venue to stop mid-bar; it would still miss the bar's lows.
 */
const BAR_SAMPLING_NOTE =
  "On bars, equity is sampled once each bar has been matched, marked at its close (as backtesting.py's equity is): an order filled at a bar's open shows its fee together with that bar's move, and moves inside a bar (its low, the fee before the move) are not in the curve or the drawdowns.";

/** Time after the last event during which commands sent at the end may still arrive, ms. */
const END_SETTLE_MS = 60_000;

/**
 * Closes what is open once every event was delivered: the closing orders arrive after the last
 * event and fill at each sym's last known price, through the venue with its fees. On the bar fill
 * model a market order waits for a bar, so the venue is given {@link closingBar} at the sym's last
 * close; on quotes and trades the orders take the last quote or trade, as any order arriving then.
 * A second round closes a position reopened by a resting order whose cancel lost the race with a fill.
 */
async function closeAfterLastEvent(
  kernel: Kernel,
  sim: SimVenue,
  gate: IntentGate,
  end: number,
  lastBars: ReadonlyMap<string, BarEvent>,
): Promise<void> {
  for (let round = 0; round < 2; round++) {
    // The closing bar opens when the closes are sent, so they arrive in time for its open.
    const sentAt = Math.max(end + round * END_SETTLE_MS, sim.now());
    const closed = await closeEverything(kernel, sim, gate, round);
    if (closed === undefined && round > 0) return;
    const settled = end + (round + 1) * END_SETTLE_MS;
    if (sim.fillModelName === 'bar') {
      for (const sym of closed ?? []) {
        const bar = lastBars.get(sym);
        if (bar !== undefined) sim.onMarket(closingBar(bar, sentAt, settled));
      }
    }
    sim.advanceTo(settled);
  }
}

/**
 * Runs a backtest: replays the recordings through the simulated venue and the kernel (with its
 * strategies and risk gate) on virtual time, and returns orders, fills, round-trip trades, the
 * equity curve and the metrics. The same inputs give the same result, byte for byte once
 * written. Events go in batches with a yield to the event loop between batches, so progress
 * output and signals are served during long runs. Orders (once final), fills and round trips
 * go to spill files in a temporary directory of the run's own as they happen, so memory stays
 * flat however long the run: the result reads them back when iterated, and its `dispose()`
 * removes the directory (so does the process's exit; a failed run removes it at once).
 * @param options - recordings, decoder, instruments, strategies, gate, cash and models
 * @returns the result; call its `dispose()` when done with it
 * @throws Error when a recording cannot be read or a strategy's parameters are invalid;
 *   EmptyReplayWindowError when the window holds no event of the recordings
 */
export async function runBacktest(options: BacktestRunOptions): Promise<BacktestResult> {
  if (options.recordings.length === 0) throw new Error('backtest: no recordings given');
  const dir = new SpillDirectory('keel-backtest-');
  try {
    return await runInto(dir, options);
  } catch (error) {
    dir.dispose();
    throw error;
  }
}

/** What a run writes as it goes, in its spill directory. */
interface RunRecords {
  readonly journal: OrderJournal;
  readonly fills: SpillLog<Execution>;
  readonly trades: SpillLog<RoundTripTrade>;
  readonly book: RoundTripBook;
  readonly costs: CostTally;
  readonly tally: TradeTally;
  readonly liquidations: LiquidationJournal;
}

async function runInto(dir: SpillDirectory, options: BacktestRunOptions): Promise<BacktestResult> {
  const headers = await Promise.all(options.recordings.map((path) => readSessionHeader(path)));
  const batchSize = options.batchSize ?? 8192;
  const fresh = (path: string) => () =>
    readEventBatches(path, (record) => marketOnly(record, options.decode));
  const cache = options.eventCache;
  const span: RecordedSpan = { first: undefined, last: undefined };
  const sources = mergeByRecvTs(
    options.recordings.map((path) =>
      within(
        cache === undefined ? fresh(path)() : cachedMarketEvents(path, cache.decoderId, fresh(path)),
        options.window,
        span,
      ),
    ),
    batchSize,
  );
  const iterator = sources[Symbol.asyncIterator]();
  const first = await iterator.next();
  const firstBatch: readonly MarketEvent[] = first.done ? [] : first.value;
  // An empty window read every recording to its end: the span is whole.
  if (first.done && options.window !== undefined)
    throw new EmptyReplayWindowError(options.window, span.first, span.last);
  const startTime = firstBatch[0]?.recvTs ?? Math.min(...headers.map((h) => h.startTime));
  const spanMs = await spanOf(options, startTime);
  const sampleMs = options.equitySampleMs ?? equitySampleStepFor(spanMs);

  const settleAsset = options.settleAsset ?? 'USDT';
  const instruments =
    options.commission === undefined
      ? options.instruments
      : options.instruments.map((spec) => withCommission(spec, options.commission ?? {}));
  const fillModel: FillModelOptions | FillModelName = options.fillModel ?? defaultFillModelFor(firstBatch);
  const sim = createSimVenue({
    ...options.sim,
    instruments,
    fillModel,
    ...(options.latency === undefined ? {} : { latency: options.latency }),
    startingBalances: { [settleAsset]: options.startingCash },
    random: seededRandom(options.seed ?? 1),
    startTime,
  });
  const contractSizes = new Map<string, Dec>(instruments.map((spec) => [spec.sym, spec.contractSize]));
  const trades = new SpillLog(dir, 'trades', ROUND_TRIP_CODEC);
  const tally = new TradeTally();
  const closeTrade = (trade: RoundTripTrade): void => {
    trades.append(trade);
    tally.add(trade);
  };
  const records: RunRecords = {
    journal: new OrderJournal(dir),
    fills: new SpillLog(dir, 'fills', EXECUTION_CODEC),
    trades,
    book: new RoundTripBook(closeTrade, (sym) => contractSizes.get(sym)),
    costs: new CostTally((sym) => contractSizes.get(sym) ?? ONE),
    tally,
    liquidations: new LiquidationJournal(),
  };
  const orderedSyms = new Set<string>();
  // The sim reports an order REJECTED once, as its final state.
  let rejected = 0;
  let firstRejected: string | undefined;
  let loanRefusals = 0;
  let firstLoanRefusal: string | undefined;

  const scheduler = virtualScheduler(startTime);
  const market = new Subject<MarketEvent>();
  const user = new Subject<UserEvent>();
  const kernel = new Kernel({
    instruments,
    market,
    user,
    execution: sim,
    gate: options.gate,
    scheduler,
    strategies: options.strategies,
  });
  const delivery = new StrategyDelivery(kernel, sim, market, user);
  const barModel = sim.fillModelName === 'bar';
  // One subscription: the run's records first, then the strategies' delivery (which may react at once).
  sim.events.subscribe((event) => {
    if (event.kind === 'execution') {
      records.fills.append(event.execution);
      records.costs.add(event.execution);
      records.book.add(event.execution);
    } else if (event.kind === 'order') {
      records.journal.update(event.order);
      orderedSyms.add(event.order.sym);
      if (event.order.orderState === 'REJECTED') {
        rejected += 1;
        firstRejected ??= rejectedOrderText(event.order);
      }
    } else if (event.kind === 'liquidationEvent' || event.kind === 'liquidationPosition') {
      records.liquidations.observe(event);
    } else if (event.kind === 'commandRejected' && isLoanRefusal(event)) {
      loanRefusals += 1;
      firstLoanRefusal ??= refusedLoanText(event);
    }
    delivery.fromVenue(event);
  });
  const faults: StrategyFaultRecord[] = [];
  kernel.faults.subscribe((fault) => faults.push(strategyFaultRecord(fault)));
  if (options.onStrategyRejection !== undefined) kernel.rejections.subscribe(options.onStrategyRejection);
  const sampler = new EquitySampler(sampleMs, () => sim.equity(), {
    estimate: () => sim.equityEstimate(),
    snapshot: () => sim.equitySnapshot(),
    ...(options.equityBuckets === undefined ? {} : { maxBuckets: options.equityBuckets }),
  });
  const finished = kernel.start();
  await seedKernelWithBalances(kernel, sim, startTime);
  sampler.start(startTime);

  options.progress?.start(spanMs);
  let handled = 0;
  let last: MarketEvent | undefined;
  // Each sym's last closed bar: the price the end-of-run close fills at on the bar fill model.
  const lastBars = new Map<string, BarEvent>();
  let batch: readonly MarketEvent[] | undefined = firstBatch;
  while (batch !== undefined) {
    for (const event of batch) {
      // The venue matches a closed bar against its whole span: its timers inside it wait for the bar.
      delivery.catchUp(
        event.recvTs,
        barModel && event.kind === 'bar' && event.closed
          ? Math.min(event.openTime, event.recvTs)
          : event.recvTs,
      );
      sampler.beforeEvent(event.recvTs);
      sim.onMarket(event);
      delivery.afterVenue(event);
      sampler.observe(event);
      if (event.kind === 'bar' && event.closed) lastBars.set(event.sym, event);
    }
    last = batch[batch.length - 1] ?? last;
    handled += batch.length;
    options.progress?.update(handled, (last?.recvTs ?? startTime) - startTime);
    await yieldToEventLoop();
    const next = await iterator.next();
    batch = next.done ? undefined : next.value;
  }
  delivery.flush();
  // Strategies stop before the venue settles, so nothing they do reacts to the closing fills.
  market.complete();
  await finished;
  kernel.stop();
  if (last !== undefined) {
    const end = last.recvTs;
    if (options.closeAtEnd ?? true) {
      await closeAfterLastEvent(kernel, sim, options.gate, end, lastBars);
    } else {
      sim.advanceTo(end + END_SETTLE_MS);
    }
    // The last sample is taken after the venue settled, so the closing fills and fees are in it.
    sampler.sample(end);
  }
  options.progress?.stop();

  const result = assemble(options, headers, instruments, sim, records, sampler, settleAsset);
  const rejections = rejectionWarning(rejected, result.orders.length, firstRejected);
  const loanRefused = loanRefusalWarning(loanRefusals, firstLoanRefusal);
  const warnings = [
    ...setupWarnings(
      kernel,
      options.strategies,
      instruments.map((spec) => spec.sym),
    ),
    ...(options.fillModel === undefined
      ? defaultFillModelWarnings(sim.fillModelName, kernel.state, orderedSyms)
      : []),
    ...(rejections === undefined ? [] : [rejections]),
    ...barOverlapWarnings(sim.barOverlaps()),
    ...(loanRefused === undefined ? [] : [loanRefused]),
  ];
  return { ...result, meta: { ...result.meta, warnings }, faults, dispose: () => dir.dispose() };
}

/** The venue publishes balances only when they change: the kernel learns the starting ones here. */
async function seedKernelWithBalances(kernel: Kernel, sim: SimVenue, ts: number): Promise<void> {
  const snapshot = await sim.snapshot();
  for (const asset of snapshot.assets) kernel.push({ kind: 'asset', ts, recvTs: ts, asset });
  if (snapshot.account !== undefined)
    kernel.push({ kind: 'account', ts, recvTs: ts, account: snapshot.account });
}

function describeFees(instruments: readonly InstrumentSpec[], options: BacktestRunOptions): string {
  const sub = options.sim?.subPortfolioMarkup;
  const subText =
    sub === undefined || sub.isZero()
      ? ''
      : ` Sub-portfolio markup ${sub.mul(10_000).toFixed()} bps on every rate, on top of any instrument markup.`;
  if (options.commission !== undefined) {
    const rate = options.commission.rate?.mul(10_000).toFixed() ?? '0';
    return `Flat commission of ${rate} bps of notional${fixedCommissionText(options.commission)}, for makers and takers alike.${subText}`;
  }
  const parts = instruments.map(
    (s) =>
      `${s.sym}: maker ${s.fees.maker.mul(10_000).toFixed()} bps, taker ${s.fees.taker.mul(10_000).toFixed()} bps` +
      (s.fees.markup.isZero() ? '' : `, instrument markup ${s.fees.markup.mul(10_000).toFixed()} bps`) +
      fixedCommissionText(s.fees),
  );
  return `Per-instrument fees paid in the quote asset. ${parts.join('; ')}.${subText}`;
}

function recordingDescription(path: string, header: SessionHeader): RecordingDescription {
  return {
    path,
    synthetic: header.synthetic,
    ...(header.description === undefined ? {} : { description: header.description }),
  };
}

function assemble(
  options: BacktestRunOptions,
  headers: readonly SessionHeader[],
  instruments: readonly InstrumentSpec[],
  sim: SimVenue,
  records: RunRecords,
  sampler: EquitySampler,
  settleAsset: string,
): BacktestResult {
  const contractSizes = new Map<string, Dec>(instruments.map((s) => [s.sym, s.contractSize]));
  const contractSizeOf = (sym: string): Dec => contractSizes.get(sym) ?? ONE;
  const orders: RecordLog<Order> = records.journal.finish();
  const fills: RecordLog<Execution> = records.fills.seal();
  records.book.flush();
  const closed: RecordLog<RoundTripTrade> = records.trades.seal();
  const open = records.book.openTrades();
  const end = sampler.curve[sampler.curve.length - 1]?.ts ?? Number.POSITIVE_INFINITY;
  const prices = sampler.priceSeries();
  const synthetic = headers.some((h) => h.synthetic);
  const cashFlows = cashFlowRecordsOf(sim.statement());
  const liquidations = records.liquidations.records();
  const closeAtEnd = options.closeAtEnd ?? true;
  const runConfig: { [key: string]: JsonValue } = {
    startingCash: options.startingCash.toFixed(),
    settleAsset,
    closeAtEnd,
    seed: options.seed ?? 1,
    equitySampleMs: sampler.everyMs,
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
    ...(closeAtEnd ? unclosedNotes(open) : []),
    'Strategies see each market event at its receive time; the latency model delays orders on their way to the venue.',
    `Equity is sampled at most every ${sampler.everyMs / 1000} s of event time${options.equitySampleMs === undefined ? ' (the default step for this span of recorded time)' : ''} and at the end; ` +
      `the curve keeps, per ${formatBucket(sampler.bucketMs)} bucket of event time, the lowest and highest sample and the equity at the bucket's last event, ` +
      `so its size stays bounded (at most ${options.equityBuckets ?? 4096} buckets) while daily returns see each day's last equity; ` +
      'drawdown figures and the mean equity of the turnover ratio are measured on every sample (estimated on numbers between the exact ones).',
    ...(sim.fillModelName === 'bar' ? [BAR_SAMPLING_NOTE] : []),
    ...(options.assumptions ?? []),
  ];
  return {
    meta: {
      title: options.title ?? `Backtest of ${options.strategies.map((s) => s.strategy.name).join(', ')}`,
      strategies: options.strategies.map((slot) => ({
        id: slot.id,
        name: slot.strategy.name,
        params: options.reportParams?.[slot.id] ?? toJsonRecord(slot.params),
      })),
      recordings: options.recordings.map((path, i) =>
        recordingDescription(path, headers[i] as SessionHeader),
      ),
      fillModel: { name: sim.fillModelName, description: sim.assumptions.fillModel },
      latencyModel: { name: 'fixed + seeded jitter', description: sim.assumptions.latency },
      feeModel: {
        name: options.commission === undefined ? 'maker-taker' : 'commission',
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
    metrics: computeMetrics({
      equityCurve: sampler.curve,
      trades: closed,
      openTrades: open,
      fills,
      exposureIntervals: records.book.exposureIntervals(end),
      costTally: records.costs,
      tradeTally: records.tally,
      drawdown: sampler.drawdownFigures(),
      meanEquity: sampler.meanEquity(),
      ...(prices[0] === undefined ? {} : { benchmark: prices[0].points }),
      // Per-sample returns step by the curve's bucket width: one close per grid interval.
      annualization: {
        sampleStepMs: sampler.bucketMs,
        ...(options.annualization ?? defaultAnnualizationOf(instruments)),
      },
      contractSizeOf,
      cashFlows,
      liquidations,
      accountCurrency: settleAsset,
    }),
  };
}

/**
 * Says which positions the end-of-run close could not close: the gate refused it, or the last
 * known price of the sym lacked a price or the liquidity to fill it.
 */
function unclosedNotes(open: readonly OpenTrade[]): string[] {
  const syms = [...new Set(open.map((trade) => trade.sym))];
  return syms.map(
    (sym) =>
      `${sym} stayed open at the end: its closing order did not fill (refused by the risk gate, or no price or not enough liquidity at its last known price); it is valued at its last price and left out of the trade statistics.`,
  );
}

function formatBucket(ms: number): string {
  return ms % 3_600_000 === 0
    ? `${ms / 3_600_000} h`
    : ms % 60_000 === 0
      ? `${ms / 60_000} min`
      : `${ms / 1000} s`;
}

function toJsonRecord(value: unknown): { [key: string]: JsonValue } {
  if (value === undefined || value === null || typeof value !== 'object') return {};
  return JSON.parse(JSON.stringify(value)) as { [key: string]: JsonValue };
}

import type { ExecutionPort } from '../../core/execution/index.ts';
import {
  type AdlRankEvent,
  BAR_INTERVAL_MS,
  type Dec,
  type Intent,
  type Loan,
  type LoanRisk,
  type MarketEvent,
  type Order,
  type UserEvent,
} from '../../core/model/index.ts';
import type { ApprovedIntent } from '../../core/risk/index.ts';
import { adlRanksOf } from './adl-rank.ts';
import { createAssumedFundingLog, noteAssumedFunding } from './assumed-funding.ts';
import { type BarOverlap, barOverlapsOf } from './bar-coverage.ts';
import { matchBar } from './bar-matching.ts';
import { coinValue, isCoinValued } from './coin-valuation.ts';
import { dispatch } from './command-dispatch.ts';
import { earlySpanWorkOf } from './early-span-work.ts';
import {
  type EquitySnapshot,
  equityEstimateOf,
  equitySnapshotOf,
  marginHeadroomOf,
} from './equity-estimate.ts';
import { eventFanOut } from './event-fan-out.ts';
import { checkSubPortfolioMarkup } from './fee-model.ts';
import { describeFillModel, type FillModelName } from './fill-model.ts';
import { settleFunding } from './funding.ts';
import { createLatencyModel } from './latency-model.ts';
import { loanRiskOf, loanView, startedHourInterest } from './loans.ts';
import { equityOf } from './margin.ts';
import { watchMargin } from './margin-watch.ts';
import { foldMarket, lastPriceOf } from './market-state.ts';
import { fillWaiting, marketOf, workOrder } from './matching.ts';
import { capReduceOnlyOrders } from './reduce-only-trim.ts';
import { matchResting } from './resting-matching.ts';
import { keepToSession } from './session-keeping.ts';
import { resolveSimOptions, type SimVenueOptions } from './sim-options.ts';
import { orderView } from './sim-order.ts';
import { type CashFlow, createSimState, type EarlySpanWork, type SimLedger } from './sim-state.ts';
import { rearmAfterBar, runTimers } from './timers.ts';
import { attachTpSl } from './tp-sl-attachments.ts';
import { checkMarkTriggers, checkTriggers } from './triggers.ts';
import { type SimSnapshot, snapshotOf } from './venue-snapshot.ts';
import { venueTimeOf } from './venue-time.ts';

/** The simulated venue: an execution port on virtual time, fed by recorded market events. */
export interface SimVenue extends ExecutionPort {
  /** Everything the venue holds now; its assets always listed. */
  snapshot(): Promise<SimSnapshot>;
  /** The fill model's name, for reports. */
  readonly fillModelName: FillModelName;
  /** Every modelling assumption in words, for reports. */
  readonly assumptions: { readonly fillModel: string; readonly latency: string };
  /**
   * Advances virtual time to the event's `recvTs` (commands that arrived by then run first, in
   * arrival order), then matches resting orders and triggers against the event.
   * @param event - the next recorded market event
   * @param timersUntil - fire the venue's timers only up to here (default the event's `recvTs`):
   *   the end-of-run closing bar, given after the last event, fires none after it
   */
  onMarket(event: MarketEvent, timersUntil?: number): void;
  /**
   * Advances virtual time without market data (e.g. at the end of a replay), running commands and
   * timers that are due.
   * @param ts - the new virtual time; earlier times are ignored
   * @param timersUntil - fire timers only up to here (default `ts`): a runner stepping to a time
   *   inside the span of the bar it has yet to pass on leaves that span's timers for after the bar
   */
  advanceTo(ts: number, timersUntil?: number): void;
  /** @returns the current virtual time */
  now(): number;
  /**
   * On the bar fill model, where the venue expects the next bar to open: the end of the latest
   * closed bar it matched. A bar's timers fire after the bar is matched, so a driver that moves
   * the venue past this time without the bar (the paper venue, on a command or a lockstep tick)
   * passes it as `timersUntil`, as the backtest runner passes the next bar's open.
   * @returns epoch ms; `Infinity` on other fill models and before the first closed bar
   */
  nextBarOpen(): number;
  /**
   * When the venue next has work of its own: the next command to arrive or timer to fire. A
   * runner that delays what strategies see moves the venue there first, so the venue's answers
   * are stamped in time order with what it delivers.
   * @param timersUntil - timers later than this do not count (default: every timer)
   * @returns epoch ms; `Infinity` when nothing is pending
   */
  nextDueAt(timersUntil?: number): number;
  /**
   * Draws the next market-data delay of the latency model (venue -> strategy), for the runner
   * that delivers recorded events to the strategies.
   * @returns ms
   */
  marketDataDelay(): number;
  /**
   * ADL rank of open positions, as GET /api/v1/adl/rank answers.
   * @param sym - only this pair; omitted = every position with non-zero size
   * @returns one event per position
   * @throws SimVenueError 401011 when sym is unknown or not a perpetual (not ADL-monitored)
   */
  adlRanks(sym?: string): Promise<AdlRankEvent[]>;
  /**
   * The close command a close order the venue named itself (`SIM-C-<n>`) was placed for: its
   * owner is the order's, known as the order is made (a kernel behind a User Data latency learns
   * it only when the order reaches it).
   * @param clientOrderId - the order's reference
   * @returns the close command's reference, undefined for any other order
   */
  closeCommandOf(clientOrderId: string): string | undefined;
  /**
   * The syms whose recordings held bars of several intervals, where the bar fill model passed
   * over coarser bars that finer ones already covered (it matches the finest), for a warning.
   * @returns one entry per such sym, in sym order; empty on other fill models
   */
  barOverlaps(): BarOverlap[];
  /**
   * On the bar fill model, the bars whose orders were matched after the venue had already, at a
   * time inside the bar's span, fired a timer of the bar's sym or of the whole account (funding,
   * an expiry, a TIME release, loan interest) or run a liquidation, margin call or mark trigger:
   * an event stamped inside the span (a mark, another sym's bar) reached the venue before the
   * bar, and that work met the positions and orders of before the bar's open fills. For a warning.
   * @returns how many such bars and the first; undefined when none (always on other fill models)
   */
  earlySpanWork(): EarlySpanWork | undefined;
  /**
   * The funding times of the usual 8-hour schedule (00:00, 08:00, 16:00 UTC) at which the venue
   * held a position on a perpetual it had no funding data of (no recorded nextFundingTime yet),
   * counted as funding data would have settled them: on the position of the venue's first work
   * after the funding time (see `assumed-funding.ts`). It charged nothing there; for a warning.
   * @returns per such sym, the funding times in order
   */
  unfundedHolds(): ReadonlyMap<string, readonly number[]>;
  /** @returns funding, interest, liquidation-fee, borrow and repay cash flows so far */
  statement(): readonly CashFlow[];
  /** @returns running totals: realized PnL, fees, funding, interest */
  ledger(): Readonly<SimLedger>;
  /** @returns equity in the account currency, marked to the latest prices */
  equity(): Dec;
  /**
   * Equity on numbers (float rounding only away from {@link SimVenue.equity}), for callers that
   * must decide per event whether the exact equity is worth computing.
   * @returns the estimate in the account currency
   */
  equityEstimate(): number;
  /**
   * Captures the equity now without computing it: the snapshot gives exactly what
   * {@link SimVenue.equity} gives now, whenever it is asked (Decimal work only then).
   * @returns the deferred equity
   */
  equitySnapshot(): EquitySnapshot;
  /**
   * A number floor of the available margin: the margin check of new orders needs the exact
   * figures only when it is not clearly positive.
   * @returns the floor in the account currency, NaN when a price it needs is unknown
   */
  availableMarginFloor(): number;
  /** @returns loan-to-value of the margin loans: loan value / (equity + loan value) */
  loanRisk(): LoanRisk;
  /**
   * The value of one unit of a coin in the account currency, as the venue values it now (1 for a
   * valuation coin, else the mark of the `{coin}/{valuation coin}` instrument that values it).
   * @param coin - the coin
   * @returns its value, undefined while no instrument values it
   */
  coinValue(coin: string): Dec | undefined;
  /** @returns the margin loans outstanding now (principal left), in the order first borrowed */
  loans(): Loan[];
  /** @returns per open loan with an hour under way, its coin and that hour's interest, not charged yet */
  startedHourInterest(): { readonly coin: string; readonly amount: Dec }[];
  /**
   * Changes the portfolio's sub-portfolio fee markup (as the broker endpoint does on the venue):
   * every fill from now on pays the instrument's rate and own markup plus this markup (it
   * replaces `subPortfolioMarkup`, not the instrument's markup); earlier fills keep theirs.
   * @param markup - the markup as a rate added to maker and taker rates (0.000001 = 0.01 bps)
   * @throws RangeError when the markup is negative or finer than the venue's precision of 0.01 bps
   */
  setFeeMarkup(markup: Dec): void;
  /**
   * The leverage the venue applies to a sym (the configured one, or its default).
   * @param sym - the symbol
   * @returns the leverage
   */
  leverageOf(sym: string): Dec;
  /**
   * Submits a command of Keel's end-of-run close as {@link SimVenue.submit} does (same connection,
   * same latency), except that the position closes it places trade whatever the instrument's
   * trading hours: the close books what is open at the last known price when the data ends, and a
   * US equity session opening after the run would never come. A strategy's orders never do so.
   * Its close orders are named after its command's reference (a strategy's close's orders get
   * venue ids, `SIM-C-<n>`), which the report tells as Keel's own by.
   * @param command - an approved cancel or close command of the end-of-run close
   */
  submitEndOfRunClose(command: ApprovedIntent): void;
}

interface PendingCommand {
  readonly arrival: number;
  readonly intent: Intent;
  /** Sent by Keel's end-of-run close (see {@link SimVenue.submitEndOfRunClose}). */
  readonly endOfRun: boolean;
}

/**
 * Creates a simulated venue.
 * @param options - instruments, fill and latency models, balances, margin, loans, randomness
 * @returns the venue
 * @throws RangeError when an option is invalid (see {@link resolveSimOptions})
 * @example
 * const sim = createSimVenue({ instruments, startingBalances: { USDT: D('10000') }, random: seededRandom(1) });
 * sim.events.subscribe((e) => kernel.push(e));
 * for (const event of recording) sim.onMarket(event);
 */
export function createSimVenue(options: SimVenueOptions): SimVenue {
  const opts = resolveSimOptions(options);
  const latency = createLatencyModel(opts.latency, opts.random);
  const userData = eventFanOut<UserEvent>();
  const state = createSimState(opts, latency, userData.emit);
  state.hooks = {
    attachTpSl: (order) => attachTpSl(state, order),
    workOrder: (order) => workOrder(state, order),
    capReduceOnly: (position) => capReduceOnlyOrders(state, position),
  };
  // A delivered command's slot is emptied at once: a command the array still held would live on
  // until the next compaction, and V8, seeing nearly every command outlive a young-generation
  // collection, would allocate commands, intents and their Decimals in the old generation.
  const queue: (PendingCommand | undefined)[] = [];
  let head = 0;
  let lastArrival = Number.NEGATIVE_INFINITY;
  // In a field, moved in place: a number in a closure's variable is a heap object made per store, one per bar.
  const bars = { nextOpen: Number.POSITIVE_INFINITY };
  const unfunded = createAssumedFundingLog();

  /**
   * Moves virtual time to `ts`, delivering the commands that arrive by then and firing each timer
   * (expiry, TIME order, funding, interest) at its own time between them, up to `timersUntil`. A
   * command that filled on arrival (a market order, a close, a limit or a modify that took
   * liquidity) has the margin checked at its arrival, as a timer's charge has (`runTimers`): a fill
   * that takes equity below maintenance starts the liquidation then, not at the next market event,
   * which may be hours away or never come.
   */
  const runDue = (ts: number, timersUntil = ts) => {
    for (;;) {
      const next = head < queue.length ? (queue[head] as PendingCommand) : undefined;
      const arrival = next !== undefined && next.arrival <= ts ? next.arrival : Number.POSITIVE_INFINITY;
      if (state.deadline <= Math.min(arrival, timersUntil)) {
        state.now = Math.max(state.now, state.deadline);
        noteAssumedFunding(state, unfunded, state.now);
        runTimers(state);
        continue;
      }
      if (next === undefined || arrival === Number.POSITIVE_INFINITY) break;
      queue[head++] = undefined;
      state.now = Math.max(state.now, arrival);
      // A funding timer due after `timersUntil` would not have fired before this command.
      noteAssumedFunding(state, unfunded, Math.min(state.now, timersUntil));
      const fills = state.fills;
      dispatch(state, next.intent, next.endOfRun);
      if (state.fills !== fills) watchMargin(state);
    }
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
    state.now = Math.max(state.now, ts);
  };

  const onMarket = (event: MarketEvent, timersUntil = event.recvTs) => {
    // A bar's prices happened over its whole span: an order live at its open is matched against
    // all of it, so the venue's timers inside the span (a DAY order ending at 16:00 within a daily
    // bar) fire after the bar is matched (Keel's choice; bar data cannot say when inside the bar a
    // price came). Commands arriving inside the span run at their time, and sit the bar out.
    const bar = opts.fillModel.name === 'bar' && event.kind === 'bar' && event.closed ? event : undefined;
    // The sym's own timers wait for its own bar, not for whichever sym's bar of the batch came first.
    if (bar !== undefined) rearmAfterBar(state, bar.sym, bar.openTime);
    runDue(event.recvTs, Math.min(timersUntil, bar === undefined ? event.recvTs : bar.openTime));
    // Before the event's matching: on bars, the marks stamped inside the bar's span would have
    // settled the funding times there on the position from before its open fills.
    noteAssumedFunding(state, unfunded, Math.min(event.recvTs, timersUntil));
    // Informational channels move no price the sim matches or marks against (Keel's choice).
    if (event.kind === 'ticker' || event.kind === 'indexPrice' || event.kind === 'openInterest') return;
    const market = marketOf(state, event.sym);
    // A new nextFundingTime replaces the old one: settle the old one first, at its rate and at the
    // last mark at or before it, which is this event's when it arrives at the funding time (one
    // arriving later finds it settled by the timer, 1 ms after).
    if (
      event.kind === 'markPrice' &&
      event.nextFundingTime !== market.nextFundingTime &&
      !Number.isNaN(market.nextFundingTime)
    ) {
      const atFundingTime = state.now <= market.nextFundingTime;
      settleFunding(state, event.sym, market, atFundingTime ? event.markPrice : market.mark);
    }
    foldMarket(market, event);
    if (!Number.isNaN(market.nextFundingTime)) {
      // Another event stamped at the funding time leaves it to a mark of that millisecond or to the
      // timer 1 ms after, so a mark arriving after it at the same time is the one paid at.
      if (event.kind === 'markPrice' || market.nextFundingTime < state.now)
        settleFunding(state, event.sym, market);
      // Still ahead: a timer settles it on the positions held then, whatever arrives before the next event.
      if (market.fundingSettledAt !== market.nextFundingTime)
        state.deadline = Math.min(state.deadline, market.nextFundingTime + 1);
    }
    if (opts.fillModel.name === 'bar') {
      if (bar !== undefined) {
        matchBar(state, bar);
        const end = bar.openTime + BAR_INTERVAL_MS[bar.interval];
        bars.nextOpen = bars.nextOpen === Number.POSITIVE_INFINITY ? end : Math.max(bars.nextOpen, end);
        rearmAfterBar(state, bar.sym, end);
        runDue(event.recvTs, timersUntil);
      } else if (event.kind === 'markPrice') {
        checkMarkTriggers(state, event.sym, event.markPrice);
      }
    } else if (event.kind !== 'bar' && event.kind !== 'gap') {
      // The venue met a print when it happened there, before it was received: what it does in
      // reaction (a triggered order, a tp / sl attachment) exists from then.
      state.matchingAt = venueTimeOf(event);
      keepToSession(state, event.sym);
      fillWaiting(state, event.sym);
      const last = lastPriceOf(market);
      checkTriggers(state, event.sym, last);
      matchResting(state, event);
      state.matchingAt = Number.NaN;
    }
    if (state.positions.size > 0 || state.loans.size > 0) watchMargin(state);
  };

  const enqueue = (command: ApprovedIntent, endOfRun: boolean): void => {
    // One connection delivers commands in order: arrival times never go backwards (Keel's choice).
    const arrival = Math.max(state.now + latency.orderEntry(), lastArrival);
    lastArrival = arrival;
    queue.push({ arrival, intent: command.intent, endOfRun });
  };

  return {
    events: userData.events,
    fillModelName: opts.fillModel.name,
    assumptions: { fillModel: describeFillModel(opts.fillModel), latency: latency.description },
    submit: (command: ApprovedIntent) => enqueue(command, false),
    submitEndOfRunClose: (command: ApprovedIntent) => enqueue(command, true),
    onMarket,
    advanceTo: runDue,
    now: () => state.now,
    nextBarOpen: () => bars.nextOpen,
    nextDueAt: (timersUntil = Number.POSITIVE_INFINITY) =>
      Math.min(
        head < queue.length ? (queue[head] as PendingCommand).arrival : Number.POSITIVE_INFINITY,
        state.deadline <= timersUntil ? state.deadline : Number.POSITIVE_INFINITY,
      ),
    marketDataDelay: () => latency.marketData(),
    lookupOrder(sym: string, clientOrderId: string): Promise<Order | undefined> {
      const order = state.ordersByRef.get(clientOrderId);
      if (order !== undefined)
        return Promise.resolve(order.sym === sym ? orderView(order, opts.portfolioId) : undefined);
      // A final order's view, copied as a view of the order made now would be: a new object.
      const final = state.finalOrderViews.get(clientOrderId);
      return Promise.resolve(final !== undefined && final.sym === sym ? { ...final } : undefined);
    },
    snapshot: (): Promise<SimSnapshot> => Promise.resolve(snapshotOf(state)),
    adlRanks: (sym?: string): Promise<AdlRankEvent[]> => adlRanksOf(state, sym),
    closeCommandOf: (clientOrderId: string) => state.closeCommandRefs.get(clientOrderId),
    barOverlaps: () => barOverlapsOf(state),
    earlySpanWork: () => earlySpanWorkOf(state),
    unfundedHolds: () => unfunded.held,
    statement: () => [...state.cashFlows],
    ledger: () => ({ ...state.ledger }),
    equity: () => equityOf(state),
    equityEstimate: () => equityEstimateOf(state),
    equitySnapshot: () => equitySnapshotOf(state),
    availableMarginFloor: () => marginHeadroomOf(state).floor,
    loanRisk: () => loanRiskOf(state),
    coinValue: (coin: string) => (isCoinValued(state, coin) ? coinValue(state, coin) : undefined),
    loans: () => [...state.loans.values()].map(loanView),
    startedHourInterest: () => startedHourInterest(state),
    leverageOf: (sym: string) => opts.leverageOf(sym),
    setFeeMarkup(markup: Dec): void {
      checkSubPortfolioMarkup(markup, 'sim setFeeMarkup');
      state.feeMarkup = markup;
    },
  };
}

import type {
  BarEvent,
  Dec,
  InstrumentSpec,
  MarketTradeEvent,
  MarkPriceEvent,
  PlaceOrderIntent,
  PositionSide,
  QuoteEvent,
} from '../model/index.ts';
import { BAR_INTERVAL_MS } from '../model/index.ts';
import { type HeldTrailingStop, holdTrailingStop, trailingStopSnapshot } from './held-trailing-stop.ts';
import type { KernelDenial } from './intent-ownership.ts';
import type { TrailingStep } from './trailing-level.ts';
import type { TrailingStop, TrailingStopCancelReason } from './trailing-stop.ts';
import { trailingStopProblem } from './trailing-stop-checks.ts';

/**
 * What the emulator reads of the kernel state: instruments, positions, the latest prices and the
 * time.
 */
export interface EmulatorView {
  now(): number;
  instrument(sym: string): InstrumentSpec | undefined;
  /** Signed quantity of one position leg (long > 0), as `KernelState.positionQty`. */
  positionQty(sym: string, positionSide: PositionSide): Dec;
  readonly trades: ReadonlyMap<string, MarketTradeEvent>;
  readonly marks: ReadonlyMap<string, MarkPriceEvent>;
  readonly quotes: ReadonlyMap<string, QuoteEvent>;
  /** The latest closed bar of each sym (any interval). */
  readonly closedBars: ReadonlyMap<string, BarEvent>;
}

/** Where the emulator's work goes: the released order and every change of status. */
export interface EmulatorOutlet<O> {
  /**
   * Sends the MARKET order of a triggered stop through the risk gate, for its owner.
   * @param owner - the stop's owner
   * @param intent - the order
   * @param heldSince - when the emulator accepted the stop, epoch ms
   */
  release(owner: O, intent: PlaceOrderIntent, heldSince: number): void;
  /** Tells the owner (and the run's outputs) that a stop changed status. */
  changed(owner: O, stop: TrailingStop): void;
}

/** The latest finest feed bar of a sym, updated in place bar after bar. */
interface FinestBars {
  /** The finest feed bar interval seen of the sym, ms. */
  intervalMs: number;
  /** The close time of its latest bar of that interval, epoch ms. */
  close: number;
  /** The kernel's time when it got that bar, epoch ms. */
  seenAt: number;
}

/**
 * Keel's emulation of trailing stops (the venue's algo orders have no trailing type): the kernel
 * holds each stop, trails it on the market events it routes, and when the price crosses the stop
 * sends the order as a MARKET order under the stop's own reference through the normal way of
 * intents (risk gate, in-flight bookkeeping, execution port), as NautilusTrader's OrderEmulator
 * releases an emulated TRAILING_STOP_MARKET. No venue order exists until then, so nothing is
 * modified at the venue as the price moves. The same code runs in backtests, paper and live.
 * On bar-only data, `last` stops trail the closed bars ({@link TrailingStopEmulator.onBar}).
 * State is in memory only: nothing survives a restart.
 * @typeParam O - the owner of a stop (the kernel's strategy runner)
 */
export class TrailingStopEmulator<O> {
  /** Open stops (PENDING, ACTIVE) by reference. */
  private readonly open = new Map<string, HeldTrailingStop<O>>();
  /** Open stops by sym, for the per-event path. */
  private readonly bySym = new Map<string, HeldTrailingStop<O>[]>();
  /** The finest feed bars seen of each sym: only those bars move `last` stops. */
  private readonly finestBars = new Map<string, FinestBars>();
  /**
   * The close time of the bar whose delivery the kernel is handling, with the work that follows
   * from it ({@link beginTurn}); NaN in any other turn (a number, so the per-event path stores it
   * in place).
   */
  private reactingToClose = Number.NaN;
  /**
   * The venue's time of the User Data event the kernel is routing, with the work that follows
   * from it; NaN in any other turn.
   */
  private reactingToReport = Number.NaN;

  /**
   * @param view - instruments, latest prices and the time
   * @param outlet - where released orders and status changes go
   * @param reactionMs - on bar data, how long after the kernel got a bar a stop made then still
   *   meets the sym's next bar from its open (the kernel's `barReactionMs`; 0 live); a stop made
   *   in reaction to the bar's delivery meets it whatever the allowance ({@link beginTurn})
   */
  constructor(
    private readonly view: EmulatorView,
    private readonly outlet: EmulatorOutlet<O>,
    private readonly reactionMs = 0,
  ) {}

  /**
   * Why the emulator cannot take a trailing stop, if it cannot ({@link trailingStopProblem}): the
   * kernel asks before the risk gate judges the stop, so the gate sees only a stop it can hold.
   * @param intent - the placeOrder intent with `trailingStop`
   * @returns the kernel denial (`kernel.trailingStop`), or undefined when it can be emulated
   */
  refusal(intent: PlaceOrderIntent): KernelDenial | undefined {
    const spec = intent.trailingStop;
    const problem =
      spec === undefined
        ? 'it has no trailingStop'
        : trailingStopProblem(intent, spec, this.view.instrument(intent.sym), this.open.has(intent.ref));
    return problem === undefined
      ? undefined
      : { check: 'kernel.trailingStop', reason: `trailing stop ${intent.ref} ${problem}` };
  }

  /**
   * Takes a new trailing stop (an intent whose `trailingStop` is set) and trails it at once from
   * the latest price of its source when the kernel has one.
   * @param owner - the emitting strategy
   * @param strategyId - its id
   * @param intent - the placeOrder intent with `trailingStop`
   * @returns a kernel denial when the stop cannot be emulated, else undefined
   */
  accept(owner: O, strategyId: string, intent: PlaceOrderIntent): KernelDenial | undefined {
    const refused = this.refusal(intent);
    const spec = intent.trailingStop;
    if (refused !== undefined || spec === undefined) return refused;
    const tick = (this.view.instrument(intent.sym) as InstrumentSpec).tickSize;
    const now = this.view.now();
    const held = holdTrailingStop(owner, strategyId, intent, spec, tick, now, this.madeFor(intent.sym, now));
    this.open.set(intent.ref, held);
    const list = this.bySym.get(intent.sym);
    if (list === undefined) this.bySym.set(intent.sym, [held]);
    else list.push(held);
    this.outlet.changed(owner, trailingStopSnapshot(held));
    const price = this.latestPrice(held);
    if (price !== undefined) this.step(held, price);
    return undefined;
  }

  /**
   * @param ref - a reference
   * @returns the id of the strategy owning the open stop of that reference, undefined when none
   */
  ownerOf(ref: string): string | undefined {
    return this.open.get(ref)?.strategyId;
  }

  /**
   * Cancels an open stop.
   * @param ref - its reference
   * @param reason - why: the strategy cancelled it (the default) or the run ended
   * @returns true when it was open (it is CANCELLED now and its owner told)
   */
  cancel(ref: string, reason: TrailingStopCancelReason = 'cancel'): boolean {
    const held = this.open.get(ref);
    if (held === undefined) return false;
    held.cancelReason = reason;
    this.close(held, 'CANCELLED');
    return true;
  }

  /**
   * Ends every open stop as the run ends: each is CANCELLED (`runEnded`) and reported, so no
   * result shows as ACTIVE a stop that no longer exists anywhere.
   * @returns the stops it ended, as they were just before (PENDING or ACTIVE), oldest first
   */
  endAll(): TrailingStop[] {
    const ended = this.list();
    for (const stop of ended) this.cancel(stop.ref, 'runEnded');
    return ended;
  }

  /**
   * The references of a strategy's open stops (or every strategy's).
   * @param strategyId - the strategy; every strategy's when undefined
   * @param sym - only on this sym when given
   * @param reduceOnly - only the reduce-only ones when true
   * @param leg - only those on this leg (or on NONE, a NET-mode stop) when LONG or SHORT
   * @returns references, oldest first
   */
  openRefs(
    strategyId: string | undefined,
    sym?: string,
    reduceOnly = false,
    leg: PositionSide = 'NONE',
  ): string[] {
    const refs: string[] = [];
    for (const held of this.open.values())
      if (
        (strategyId === undefined || held.strategyId === strategyId) &&
        (sym === undefined || held.intent.sym === sym) &&
        (!reduceOnly || held.intent.reduceOnly) &&
        (leg === 'NONE' || held.intent.positionSide === 'NONE' || held.intent.positionSide === leg)
      )
        refs.push(held.intent.ref);
    return refs;
  }

  /**
   * How many stops are open (PENDING or ACTIVE).
   * @param strategyId - only this strategy's, when given
   * @returns the count (no walk when every strategy's)
   */
  count(strategyId?: string): number {
    if (strategyId === undefined) return this.open.size;
    let count = 0;
    for (const held of this.open.values()) if (held.strategyId === strategyId) count++;
    return count;
  }

  /**
   * A strategy's open stops as it sees them (not for the per-event path: it makes Decimals).
   * @param strategyId - the strategy; every strategy's when undefined
   * @param sym - only on this sym when given
   * @returns the stops, oldest first
   */
  list(strategyId?: string, sym?: string): TrailingStop[] {
    const out: TrailingStop[] = [];
    for (const held of this.open.values())
      if (
        (strategyId === undefined || held.strategyId === strategyId) &&
        (sym === undefined || held.intent.sym === sym)
      )
        out.push(trailingStopSnapshot(held));
    return out;
  }

  /** Hot path: a public trade moves the `last` stops of its sym. */
  onTrade(event: MarketTradeEvent): void {
    if (this.open.size === 0) return;
    const list = this.bySym.get(event.sym);
    if (list === undefined) return;
    for (let i = 0; i < list.length; i++) {
      const held = list[i] as HeldTrailingStop<O>;
      // A stop that triggers leaves the list: the next one moved into its place.
      if (held.spec.triggerOn === 'last' && this.step(held, event.price)) i--;
    }
  }

  /** Hot path: a mark price moves the `mark` stops of its sym. */
  onMark(event: MarkPriceEvent): void {
    if (this.open.size === 0) return;
    const list = this.bySym.get(event.sym);
    if (list === undefined) return;
    for (let i = 0; i < list.length; i++) {
      const held = list[i] as HeldTrailingStop<O>;
      if (held.spec.triggerOn === 'mark' && this.step(held, event.markPrice)) i--;
    }
  }

  /** Hot path: a BBO moves the `bidAsk` stops of its sym (SELL on the bid, BUY on the ask). */
  onQuote(event: QuoteEvent): void {
    if (this.open.size === 0) return;
    const list = this.bySym.get(event.sym);
    if (list === undefined) return;
    for (let i = 0; i < list.length; i++) {
      const held = list[i] as HeldTrailingStop<O>;
      if (
        held.spec.triggerOn === 'bidAsk' &&
        this.step(held, held.intent.side === 'SELL' ? event.bid : event.ask)
      )
        i--;
    }
  }

  /**
   * The kernel starts handling a new event, timer wake-up or change of the venue's streams (not
   * the denials and stop statuses that follow from the work before): a stop made from here on is
   * no longer a reaction to the latest bar's delivery, unless this turn delivers a bar itself
   * ({@link onBar}). The per-event path.
   */
  beginTurn(): void {
    this.reactingToClose = Number.NaN;
    this.reactingToReport = Number.NaN;
  }

  /**
   * The kernel routes a User Data event the venue stamped at `ts` (a new turn, after
   * {@link beginTurn}). On bar data the venue reports a fill as it matches a bar, stamped inside
   * or at the start of it; the report may reach the kernel a little after the bar itself.
   * @param ts - the event's venue time, epoch ms
   */
  onUserEvent(ts: number): void {
    this.reactingToReport = ts;
  }

  /**
   * A closed feed bar moves the `last` stops of a sym that never had a trade (bar-only data):
   * the bar is walked favourable extreme first - open, high, low, close for a SELL stop; open,
   * low, high, close for a BUY stop (Keel's choice). A bar does not say which extreme came first;
   * for a trailing stop, whose level follows the favourable extreme, this path triggers whenever
   * the other does, and also when the price rose and then fell back through the raised stop. (A
   * fixed stop's cautious walk is the other way round, adverse extreme first, as the simulated
   * venue walks a bar.) A stop the walk crosses triggers at the bar's close time, the first moment
   * the kernel knows the bar.
   * Only a stop that existed when the bar opened meets it ({@link barCutoff}): one made later (from
   * a timer or on an event inside the bar) sits the bar out and meets the sym's next bar, as a
   * venue algo order sent at the same moment does on the simulated venue. A stop made while the
   * kernel handles a bar's delivery (the strategies' reaction to the bar, and the denials and stop
   * statuses that follow from it) counts as made at that bar's close, however long the reaction
   * took on a paper or live clock, so it meets the sym's next bar from its open. One made on a
   * fill or other User Data event of something that happened before the sym's latest bar closed
   * counts as made when the kernel got that bar ({@link onUserEvent}): so it meets the next bar,
   * as the fill reported with that bar would on the simulated venue, even when the report reached
   * a paper or live kernel a few ms after the bar.
   * Only the finest interval of the feed counts, so overlapping bars do not walk twice.
   * @param bar - a closed bar of the feed
   * @param hadTrades - whether the sym ever had a trade (its stops then trail the trades only)
   */
  onBar(bar: BarEvent, hadTrades: boolean): void {
    const ms = BAR_INTERVAL_MS[bar.interval];
    const close = bar.openTime + ms;
    this.reactingToClose = close;
    const finest = this.finestBars.get(bar.sym);
    if (finest !== undefined && ms > finest.intervalMs) return;
    const previousSeenAt = finest?.seenAt;
    if (finest === undefined)
      this.finestBars.set(bar.sym, { intervalMs: ms, close, seenAt: this.view.now() });
    else {
      finest.intervalMs = ms;
      finest.close = close;
      finest.seenAt = this.view.now();
    }
    if (this.open.size === 0 || hadTrades) return;
    const list = this.bySym.get(bar.sym);
    if (list === undefined) return;
    const cutoff = barCutoff(bar, previousSeenAt, this.reactionMs);
    for (let i = 0; i < list.length; i++) {
      const held = list[i] as HeldTrailingStop<O>;
      if (held.spec.triggerOn === 'last' && held.madeFor <= cutoff && this.walk(held, bar)) i--;
    }
  }

  /**
   * When a stop made now counts as made for the bar cutoff: in reaction to a bar's delivery, at
   * that bar's close; in reaction to a User Data event of something that happened before the
   * sym's latest bar closed (a fill the venue reported as it matched that bar), when the kernel
   * got that bar, however late the report came after it; otherwise now.
   */
  private madeFor(sym: string, now: number): number {
    const close = this.reactingToClose;
    if (!Number.isNaN(close)) return Math.min(now, close);
    const report = this.reactingToReport;
    const latest = this.finestBars.get(sym);
    if (Number.isNaN(report) || latest === undefined || report >= latest.close) return now;
    return Math.min(now, latest.seenAt);
  }

  /** @returns true when the stop triggered on the bar's path */
  private walk(held: HeldTrailingStop<O>, bar: BarEvent): boolean {
    const sell = held.intent.side === 'SELL';
    return (
      this.step(held, bar.open) ||
      this.step(held, sell ? bar.high : bar.low) ||
      this.step(held, sell ? bar.low : bar.high) ||
      this.step(held, bar.close)
    );
  }

  /** @returns true when the stop triggered (and left the open lists) */
  private step(held: HeldTrailingStop<O>, price: number): boolean {
    const step: TrailingStep = held.level.next(price);
    if (step === 'activated') {
      held.status = 'ACTIVE';
      held.updateAt = this.view.now();
      this.outlet.changed(held.owner, trailingStopSnapshot(held));
    } else if (step === 'triggered') {
      held.crossPrice = price;
      this.close(held, 'TRIGGERED');
      const { trailingStop: _spec, ...order } = held.intent;
      this.outlet.release(held.owner, this.sizedToPosition(order), held.createAt);
      return true;
    }
    return false;
  }

  /**
   * The MARKET order a triggered stop sends: a reduce-only one no larger than the position it
   * reduces, which may have shrunk since the stop was sized (a partial exit), so that what is left
   * is closed on a US equity too, whose venue does not trim an order (a crypto venue would trim it).
   * With no position opposite to it, the order goes as placed, for the risk gate to deny.
   */
  private sizedToPosition(order: PlaceOrderIntent): PlaceOrderIntent {
    if (!order.reduceOnly) return order;
    const position = this.view.positionQty(order.sym, order.positionSide);
    const opposite = order.side === 'SELL' ? position.gt(0) : position.lt(0);
    if (!opposite || position.abs().greaterThanOrEqualTo(order.qty)) return order;
    return { ...order, qty: position.abs() };
  }

  private close(held: HeldTrailingStop<O>, status: 'TRIGGERED' | 'CANCELLED'): void {
    held.status = status;
    held.updateAt = this.view.now();
    this.open.delete(held.intent.ref);
    const list = this.bySym.get(held.intent.sym) ?? [];
    list.splice(list.indexOf(held), 1);
    if (list.length === 0) this.bySym.delete(held.intent.sym);
    this.outlet.changed(held.owner, trailingStopSnapshot(held));
  }

  private latestPrice(held: HeldTrailingStop<O>): number | undefined {
    const sym = held.intent.sym;
    switch (held.spec.triggerOn) {
      case 'last':
        return this.view.trades.get(sym)?.price ?? this.view.closedBars.get(sym)?.close;
      case 'mark':
        return this.view.marks.get(sym)?.markPrice;
      case 'bidAsk': {
        const quote = this.view.quotes.get(sym);
        return quote === undefined ? undefined : held.intent.side === 'SELL' ? quote.bid : quote.ask;
      }
    }
  }
}

/**
 * The latest time, on the kernel's clock, at which a stop still meets a bar from its open (a stop
 * made in reaction to a bar's delivery counts as made at its close: {@link TrailingStopEmulator.onBar}): the
 * bar's open time, or when the kernel got the sym's previous bar if that was later, plus the
 * venue's reaction allowance. So a stop made on the previous bar's close, or on a fill the venue
 * reported with it, meets this bar whatever the latency; one made later (from a timer inside the
 * bar, or on a mark inside it) did not exist when the bar opened and meets none of its prices.
 * Keel's choice, the simulated venue's arrival cutoff (`backtest/sim/bar-arrivals.ts`) on the
 * kernel's clock: a bar cannot say when inside it a price came. Only the kernel's clock counts (a
 * paper session's replay time; a bar's `recvTs` there is the machine's), so the allowance runs
 * from when the kernel got the bar, a market-data delay after the venue did.
 * @param bar - the closed bar about to be walked
 * @param previousSeenAt - the kernel's time when it got the sym's previous bar, undefined for none
 * @param reactionMs - the venue's reaction allowance, ms
 * @returns epoch ms: stops made after it sit the bar out
 */
function barCutoff(bar: BarEvent, previousSeenAt: number | undefined, reactionMs: number): number {
  return (previousSeenAt === undefined ? bar.openTime : Math.max(bar.openTime, previousSeenAt)) + reactionMs;
}

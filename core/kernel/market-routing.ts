import type { BarEvent, BarInterval, KeelEvent, MarketEvent } from '../model/index.ts';
import { BarAggregator, type LateBarInputs } from './bar-aggregator.ts';
import { barKey } from './bar-keys.ts';
import type { StrategySlot } from './kernel-options.ts';
import type { KernelState } from './kernel-state.ts';
import { marketListeners } from './market-listeners.ts';
import type { StrategyRunner } from './strategy-runner.ts';
import type { TrailingStopEmulator } from './trailing-stop-emulator.ts';

/** Every market event kind (a Record, so a new kind in the model fails to compile here until listed). */
const MARKET_KINDS: Readonly<Record<MarketEvent['kind'], true>> = {
  quote: true,
  trade: true,
  bar: true,
  book: true,
  markPrice: true,
  ticker: true,
  indexPrice: true,
  openInterest: true,
  gap: true,
};

/**
 * @param event - a market or User Data event
 * @returns true for a market event
 */
export function isMarketEvent(event: KeelEvent): event is MarketEvent {
  return Object.hasOwn(MARKET_KINDS, event.kind);
}

/**
 * How market data reaches the kernel state and the strategies. Every event is folded into the
 * state (so a held position of any sym is marked at its latest price), but strategies receive
 * only the run's instruments: quotes and trades go to every strategy (or those whose `syms` name
 * the sym, see {@link marketListeners}), closed bars to the strategies that watch their (sym,
 * interval), whether the feed delivered them or the {@link BarAggregator} built them. The
 * per-event hot path: one map look-up, no allocation, no Decimal work.
 */
export class MarketRouting {
  private readonly aggregator = new BarAggregator();
  private readonly barWatchers = new Map<string, StrategyRunner[]>();
  /** The route of the (sym, interval) of the latest bar: a run's bars mostly come of one or few. */
  private lastBarRoute: BarRoute | undefined;
  private readonly emitBar = (bar: BarEvent): void => this.onBar(bar);
  /** Per instrument sym, the strategies its quotes and trades go to. */
  private readonly listeners: ReadonlyMap<string, readonly StrategyRunner[]>;
  private readonly syms: ReadonlySet<string>;

  /**
   * @param state - the kernel state market data is folded into
   * @param slots - every strategy of the kernel, in runner order
   * @param runners - their runners
   * @param syms - the run's instruments: the only syms strategies receive market data of
   * @param emulator - the emulated trailing stops, moved by quotes, trades and marks before any
   *   strategy sees them (as a venue-held stop would fire before the strategy hears the price)
   * @param keelStampsOnVenueClock - whether the events the venue adapter makes itself carry the
   *   venue's own clock (see `KernelOptions.keelStampsOnVenueClock`): else they close no bar
   * @throws TypeError when a strategy's `syms` is malformed (see {@link marketListeners})
   */
  constructor(
    private readonly state: KernelState,
    slots: readonly StrategySlot[],
    runners: readonly StrategyRunner[],
    syms: readonly string[],
    private readonly emulator: TrailingStopEmulator<StrategyRunner>,
    private readonly keelStampsOnVenueClock: boolean,
  ) {
    this.listeners = marketListeners(slots, runners, syms);
    this.syms = new Set(syms);
  }

  /**
   * Closes the aggregated bars that end at or before `ts` (time moved without an event).
   * @param ts - epoch ms
   */
  closeDue(ts: number): void {
    this.aggregator.closeDue(ts, this.emitBar);
  }

  /**
   * Closes the aggregated bars an event's time ends, before the event itself is handled. Any
   * event counts: its `ts` is the venue's clock, so one at or past a bar's end says the period is
   * over there, and a live strategy would act on the bar then rather than wait for the next trade
   * (which a quiet market may not send for long). A trade of the period that arrives later is
   * left out of the bars and counted (see {@link MarketRouting.lateBarInputs}), the same in a
   * backtest as live. An event the venue adapter made itself counts only where it carries the
   * venue's own clock (a paper session's): live, its time is Keel's estimate of that clock, which
   * may run ahead of the venue's stamps.
   * @param event - a market or User Data event
   */
  closeDueAt(event: KeelEvent): void {
    const ts = event.ts;
    if (this.aggregator.nextClose <= ts) {
      if (!this.keelStampsOnVenueClock && 'stampedByKeel' in event && event.stampedByKeel === true) return;
      // A feed bar switches aggregation off before it could close a bar of its own (sym, interval).
      if (event.kind === 'bar') this.aggregator.onFeedBar(event);
      this.aggregator.closeDue(ts, this.emitBar);
    }
  }

  /**
   * Folds a market event into the state and delivers it to the strategies.
   * @param event - a market or User Data event
   * @returns false for a User Data event, which is left alone
   */
  route(event: KeelEvent): event is MarketEvent {
    const state = this.state;
    switch (event.kind) {
      case 'quote': {
        state.quotes.set(event.sym, event);
        state.priceArrived(event.sym);
        this.emulator.onQuote(event);
        const runners = this.listeners.get(event.sym);
        if (runners === undefined) return true;
        for (let i = 0; i < runners.length; i++) (runners[i] as StrategyRunner).deliverQuote(event);
        return true;
      }
      case 'trade': {
        state.trades.set(event.sym, event);
        state.priceArrived(event.sym);
        this.emulator.onTrade(event);
        this.aggregator.onTrade(event, this.emitBar);
        const runners = this.listeners.get(event.sym);
        if (runners === undefined) return true;
        for (let i = 0; i < runners.length; i++) (runners[i] as StrategyRunner).deliverTrade(event);
        return true;
      }
      case 'bar':
        if (event.closed) {
          this.emulator.onBar(event, state.trades.has(event.sym));
          state.closedBars.set(event.sym, event);
          state.priceArrived(event.sym);
        }
        {
          // One key per bar, handed on: the state, the watchers and the strategies' streams all look it up.
          const fed = this.aggregator.onFeedBar(event);
          const barRoute = this.barRouteOf(event);
          state.bars.set(barRoute.key, event);
          if (fed && event.closed && this.aggregator.admitFeedBar(event)) this.deliverBar(event, barRoute);
          if (event.closed) this.aggregator.onFinerBar(event, this.emitBar);
          return true;
        }
      case 'book':
        state.books.set(event.sym, event);
        return true;
      case 'markPrice':
        state.marks.set(event.sym, event);
        state.priceArrived(event.sym);
        this.emulator.onMark(event);
        return true;
      case 'ticker':
      case 'indexPrice':
      case 'openInterest':
        // Informational channels: nothing in the kernel's state or a strategy's callbacks reads them yet.
        return true;
      case 'gap':
        return true;
      default:
        return false;
    }
  }

  /**
   * Registers a strategy for closed bars of a (sym, interval). Bars of a sym that is not one of
   * the run's instruments are never delivered (nor built); the watch is still listed by
   * {@link MarketRouting.watched}, for the run's end-of-run warnings.
   * @param runner - the strategy
   * @param sym - the symbol
   * @param interval - the bar interval
   * @param since - the time it is watched from, epoch ms: a bar built of a period begun before
   *   is flagged `partial` (see {@link BarAggregator.watch})
   */
  watch(runner: StrategyRunner, sym: string, interval: BarInterval, since = Number.NEGATIVE_INFINITY): void {
    const key = barKey(sym, interval);
    const watchers = this.barWatchers.get(key) ?? [];
    if (!watchers.includes(runner)) watchers.push(runner);
    this.barWatchers.set(key, watchers);
    this.lastBarRoute = undefined;
    if (this.syms.has(sym)) this.aggregator.watch(sym, interval, since);
  }

  /**
   * The (sym, interval) bars each strategy watches.
   * @returns one entry per strategy and (sym, interval), in the order they were first watched
   */
  watched(): { readonly strategyId: string; readonly sym: string; readonly interval: BarInterval }[] {
    const out: { strategyId: string; sym: string; interval: BarInterval }[] = [];
    for (const [key, runners] of this.barWatchers) {
      const [sym, interval] = key.split('|') as [string, BarInterval];
      for (const runner of runners) out.push({ strategyId: runner.id, sym, interval });
    }
    return out;
  }

  /**
   * Hands the bars over to the live feed at the end of a warm-up on history: the history's bars
   * of intervals the live feed does not send (a CSV's 1h bars, with a live feed of 1m klines) no
   * longer take precedence, and the first live bar of a period begun before the live start is
   * partial (see {@link BarAggregator.goLive}).
   * @param since - the live start, epoch ms
   * @param liveIntervals - the bar intervals the live feed sends
   */
  goLive(since: number, liveIntervals: readonly BarInterval[]): void {
    this.aggregator.goLive(since, liveIntervals);
  }

  /**
   * The trades and finer bars the bar aggregation left out because they came after their bar had
   * closed, for a run's end-of-run warnings. Not for the per-event path.
   * @returns one entry per (sym, interval) that left any out
   */
  lateBarInputs(): LateBarInputs[] {
    return this.aggregator.late();
  }

  private onBar(bar: BarEvent): void {
    const barRoute = this.barRouteOf(bar);
    this.state.bars.set(barRoute.key, bar);
    this.deliverBar(bar, barRoute);
  }

  /**
   * The route of a bar's (sym, interval): looked up again only when it differs from the latest
   * bar's, or a strategy watched more bars since (each bar's key and watchers were two look-ups
   * and a key's two more, on every bar).
   */
  private barRouteOf(bar: BarEvent): BarRoute {
    const last = this.lastBarRoute;
    if (last !== undefined && last.sym === bar.sym && last.interval === bar.interval) return last;
    const key = barKey(bar.sym, bar.interval);
    const route: BarRoute = {
      sym: bar.sym,
      interval: bar.interval,
      key,
      runners: this.syms.has(bar.sym) ? this.barWatchers.get(key) : undefined,
    };
    this.lastBarRoute = route;
    return route;
  }

  /** Delivers a closed bar to the watchers of its route. */
  private deliverBar(bar: BarEvent, route: BarRoute): void {
    const runners = route.runners;
    if (runners === undefined) return;
    for (let i = 0; i < runners.length; i++) (runners[i] as StrategyRunner).deliverBar(bar, route.key);
  }
}

/** Where the bars of one (sym, interval) go. */
interface BarRoute {
  readonly sym: string;
  readonly interval: BarInterval;
  /** Their {@link barKey}. */
  readonly key: string;
  /** The strategies watching them; undefined when none, or the sym is not one of the run's instruments. */
  readonly runners: readonly StrategyRunner[] | undefined;
}

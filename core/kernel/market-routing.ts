import type { BarEvent, BarInterval, KeelEvent, MarketEvent } from '../model/index.ts';
import { BarAggregator } from './bar-aggregator.ts';
import type { KernelState } from './kernel-state.ts';
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
 * How market data reaches the kernel state and the strategies: quotes and trades go to every
 * strategy, closed bars to the strategies that watch their (sym, interval), whether the feed
 * delivered them or the {@link BarAggregator} built them. The per-event hot path: no allocation,
 * no Decimal work.
 */
export class MarketRouting {
  private readonly aggregator = new BarAggregator();
  private readonly barWatchers = new Map<string, StrategyRunner[]>();
  private readonly emitBar = (bar: BarEvent): void => this.onBar(bar);

  /**
   * @param state - the kernel state market data is folded into
   * @param runners - every strategy of the kernel
   * @param emulator - the emulated trailing stops, moved by quotes, trades and marks before any
   *   strategy sees them (as a venue-held stop would fire before the strategy hears the price)
   */
  constructor(
    private readonly state: KernelState,
    private readonly runners: readonly StrategyRunner[],
    private readonly emulator: TrailingStopEmulator<StrategyRunner>,
  ) {}

  /**
   * Closes the aggregated bars that end at or before `ts` (time moved without an event).
   * @param ts - epoch ms
   */
  closeDue(ts: number): void {
    this.aggregator.closeDue(ts, this.emitBar);
  }

  /**
   * Closes the aggregated bars an event's time ends, before the event itself is handled.
   * @param event - a market or User Data event
   */
  closeDueAt(event: KeelEvent): void {
    const ts = event.ts;
    if (this.aggregator.nextClose <= ts) {
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
    const runners = this.runners;
    const state = this.state;
    switch (event.kind) {
      case 'quote':
        state.quotes.set(event.sym, event);
        this.emulator.onQuote(event);
        for (let i = 0; i < runners.length; i++) (runners[i] as StrategyRunner).deliverQuote(event);
        return true;
      case 'trade':
        state.trades.set(event.sym, event);
        this.emulator.onTrade(event);
        this.aggregator.onTrade(event, this.emitBar);
        for (let i = 0; i < runners.length; i++) (runners[i] as StrategyRunner).deliverTrade(event);
        return true;
      case 'bar':
        if (event.closed) {
          this.emulator.onBar(event, state.trades.has(event.sym));
          state.closedBars.set(event.sym, event);
        }
        if (this.aggregator.onFeedBar(event)) {
          state.bars.set(`${event.sym}|${event.interval}`, event);
          if (event.closed && !this.aggregator.covered(event)) this.deliverBar(event);
        } else {
          state.bars.set(`${event.sym}|${event.interval}`, event);
        }
        if (event.closed) this.aggregator.onFinerBar(event, this.emitBar);
        return true;
      case 'book':
        state.books.set(event.sym, event);
        return true;
      case 'markPrice':
        state.marks.set(event.sym, event);
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
   * Registers a strategy for closed bars of a (sym, interval).
   * @param runner - the strategy
   * @param sym - the symbol
   * @param interval - the bar interval
   */
  watch(runner: StrategyRunner, sym: string, interval: BarInterval): void {
    const key = `${sym}|${interval}`;
    const watchers = this.barWatchers.get(key) ?? [];
    if (!watchers.includes(runner)) watchers.push(runner);
    this.barWatchers.set(key, watchers);
    this.aggregator.watch(sym, interval);
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

  private onBar(bar: BarEvent): void {
    this.state.bars.set(`${bar.sym}|${bar.interval}`, bar);
    this.deliverBar(bar);
  }

  private deliverBar(bar: BarEvent): void {
    for (const runner of this.barWatchers.get(`${bar.sym}|${bar.interval}`) ?? []) runner.deliverBar(bar);
  }
}

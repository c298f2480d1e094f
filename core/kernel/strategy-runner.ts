import type { Observable, Subscription } from 'rxjs';
import type {
  AlgoOrder,
  BarEvent,
  BarInterval,
  Execution,
  Intent,
  MarketTradeEvent,
  Order,
  Position,
  QuoteEvent,
  VenueStatus,
} from '../model/index.ts';
import { barKey } from './bar-keys.ts';
import type { StrategyDefinition, StrategyHooks } from './define-strategy.ts';
import { callHook, type Hook } from './hook-call.ts';
import type { OutputSink } from './hook-output.ts';
import { intentOutputError, intentOutputProblem, reportRejection, sendIntents } from './hook-output.ts';
import type { KernelState } from './kernel-state.ts';
import { orderFactoryStateOf } from './order-defaults.ts';
import { OrderFactory } from './order-factory.ts';
import { type PositionSizer, positionSizer } from './position-sizer.ts';
import { subscribeSetup } from './setup-stream.ts';
import type { StrategyContext } from './strategy-context.ts';
import type { IntentDenied, TimerEvent } from './strategy-events.ts';
import { type GeneratedRefClaim, StrategyRefs } from './strategy-refs.ts';
import type { StateFactoryFailure } from './strategy-state-factory.ts';
import { createStrategyState } from './strategy-state-factory.ts';
import { StrategyStateReads } from './strategy-state-reads.ts';
import { nextIfObserved, StrategyStreams } from './strategy-streams.ts';
import type { TrailingStop } from './trailing-stop.ts';

/** What a runner needs from its kernel. */
export interface RunnerHost {
  readonly state: KernelState;
  /** True while the strategies warm up: every intent is denied. */
  readonly warmingUp: boolean;
  submit(runner: StrategyRunner, intent: Intent): void;
  setTimer(runner: StrategyRunner, at: number, every: number, tag: string): number;
  cancelTimer(runner: StrategyRunner, id: number): boolean;
  watchBars(runner: StrategyRunner, sym: string, interval: BarInterval): void;
  trailingStopsOf(runner: StrategyRunner, sym?: string): TrailingStop[];
  fault(runner: StrategyRunner, where: string, error: unknown, how?: 'returned' | 'emitted'): void;
  rejected(runner: StrategyRunner, where: string, reason: unknown): void;
}

/**
 * One strategy inside a kernel: implements its {@link StrategyContext}, calls its hooks,
 * feeds its streams and turns what it returns into submissions. Internal to the kernel.
 */
export class StrategyRunner extends StrategyStateReads implements StrategyContext<unknown, unknown> {
  readonly order: OrderFactory;
  readonly size: PositionSizer;
  readonly state: unknown;
  /** Index in the kernel's runner list (timer ownership). */
  readonly index: number;
  /** False after stop or a fault: no more hooks, no more intents. */
  live = true;
  private readonly refs: StrategyRefs;
  /** `{id}-` or `{id}-{runId}-`: the prefix of every reference this strategy generates. */
  readonly refPrefix: string;
  private readonly hooks: StrategyHooks<unknown, unknown>;
  private readonly onQuote: Hook<QuoteEvent>;
  private readonly onTrade: Hook<MarketTradeEvent>;
  private readonly streams = new StrategyStreams();
  /** How what the strategy gives (hook returns, setup emissions, `ctx.submit`) reaches the kernel. */
  private readonly sink: OutputSink;
  private setupSubscription: Subscription | undefined;
  /** Set when the state factory failed: reported by {@link StrategyRunner.start}. */
  private stateError: StateFactoryFailure | undefined;

  /**
   * @param id - the strategy id
   * @param index - position in the kernel
   * @param definition - the plugin
   * @param params - parsed parameters
   * @param runId - optional run tag put into generated references
   * @param host - the kernel
   * @param source - the plugin's file, named in faults no stack frame places
   */
  constructor(
    id: string,
    index: number,
    private readonly definition: StrategyDefinition<unknown, unknown>,
    readonly params: unknown,
    runId: string,
    private readonly host: RunnerHost,
    readonly source?: string,
  ) {
    super(id, host.state);
    this.sink = {
      submit: (intent) => host.submit(this, intent),
      fault: (where, error, how) => host.fault(this, where, error, how),
      rejected: (where, reason) => host.rejected(this, where, reason),
    };
    this.index = index;
    this.hooks = definition;
    this.onQuote = definition.onQuote as Hook<QuoteEvent>;
    this.onTrade = definition.onTrade as Hook<MarketTradeEvent>;
    this.refs = new StrategyRefs(id, runId);
    this.refPrefix = this.refs.prefix;
    const made = createStrategyState(definition, params);
    if (made.failure !== undefined) {
      this.stateError = made.failure;
      reportRejection(this.sink, 'state', made.state);
      this.live = false;
    }
    this.state = made.state;
    this.order = new OrderFactory(orderFactoryStateOf(host.state, () => this.nextRef()));
    this.size = positionSizer(this);
  }

  /** @returns the next generated caller reference: `{id}-{runId-}{counter in base 36}` */
  nextRef(): string {
    return this.refs.next();
  }

  /**
   * Takes a generated reference out of the issued set as it is submitted.
   * @param ref - a reference starting with this strategy's prefix
   * @returns true when this strategy generated it and it was not submitted before
   */
  redeem(ref: string): boolean {
    return this.refs.redeem(ref);
  }

  /**
   * Redeems a reference of this strategy's generated form as it is submitted, or says why it may not go.
   * @param ref - a caller reference
   * @returns how it stands; undefined for a custom reference (see {@link StrategyRefs.claim})
   */
  claimGenerated(ref: string): GeneratedRefClaim | undefined {
    return this.refs.claim(ref);
  }

  /** Runs `setup` (subscribing to its intents) then `onStart`; reports a failed state factory instead. */
  start(): void {
    if (this.stateError !== undefined) {
      this.host.fault(this, 'state', this.stateError.error, this.stateError.how);
      return;
    }
    const setup = this.definition.setup;
    if (setup !== undefined) {
      const subscription = subscribeSetup(setup, this, this.sink, () => this.live);
      if (subscription === false) return;
      this.setupSubscription = subscription;
    }
    this.call('onStart', this.hooks.onStart, undefined);
  }

  /** Calls `onStop` (its intents still go out), then stops hooks and streams. */
  stop(): void {
    if (!this.live) return;
    this.call('onStop', this.hooks.onStop, undefined);
    this.halt();
  }

  /** Stops without calling `onStop` (after a fault). */
  halt(): void {
    this.live = false;
    this.setupSubscription?.unsubscribe();
    this.streams.complete();
  }

  /** Hot path: one BBO update. */
  deliverQuote(event: QuoteEvent): void {
    if (!this.live) return;
    const hook = this.onQuote;
    if (hook !== undefined && !callHook(hook, this, event, this.sink, 'onQuote')) return;
    this.streams.nextQuote(event);
  }

  /** Hot path: one public trade. */
  deliverTrade(event: MarketTradeEvent): void {
    if (!this.live) return;
    const hook = this.onTrade;
    if (hook !== undefined && !callHook(hook, this, event, this.sink, 'onTrade')) return;
    this.streams.nextTrade(event);
  }

  /**
   * A closed bar of a watched (sym, interval).
   * @param event - the bar
   * @param key - its {@link barKey}, computed once by the router for every look-up of the bar
   */
  deliverBar(event: BarEvent, key: string): void {
    this.call('onBar', this.hooks.onBar, event);
    this.streams.nextBar(event, key);
  }

  /** An update of one of this strategy's orders. */
  deliverOrder(order: Order): void {
    this.call('onOrder', this.hooks.onOrder, order);
    if (this.live) nextIfObserved(this.streams.order$, order);
  }

  /** A fill of one of this strategy's orders. */
  deliverFill(fill: Execution): void {
    this.call('onFill', this.hooks.onFill, fill);
    if (this.live) nextIfObserved(this.streams.fill$, fill);
  }

  /** A position update (any position). */
  deliverPosition(position: Position): void {
    this.call('onPosition', this.hooks.onPosition, position);
    if (this.live) nextIfObserved(this.streams.position$, position);
  }

  /** One of this strategy's timers fired. */
  deliverTimer(event: TimerEvent): void {
    this.call('onTimer', this.hooks.onTimer, event);
    if (this.live) nextIfObserved(this.streams.timer$, event);
  }

  /** One of this strategy's emulated trailing stops changed status. */
  deliverTrailingStop(stop: TrailingStop): void {
    this.call('onTrailingStop', this.hooks.onTrailingStop, stop);
    if (this.live) nextIfObserved(this.streams.trailingStop$, stop);
  }

  /** The venue reported one of this strategy's algo orders (a state change, a replace). */
  deliverAlgoOrder(algo: AlgoOrder): void {
    this.call('onAlgoOrder', this.hooks.onAlgoOrder, algo);
    if (this.live) nextIfObserved(this.streams.algoOrder$, algo);
  }

  /** A venue stream's connection changed. */
  deliverVenueStatus(status: VenueStatus): void {
    this.call('onVenueStatus', this.hooks.onVenueStatus, status);
  }

  /** One of this strategy's intents was denied. */
  deliverDenial(denial: IntentDenied): void {
    this.call('onDenied', this.hooks.onDenied, denial);
    if (this.live) nextIfObserved(this.streams.denial$, denial);
  }

  private call<E>(where: string, hook: Hook<E>, event: E): void {
    if (this.live && hook !== undefined) callHook(hook, this, event, this.sink, where);
  }

  // The rest of the StrategyContext methods (the reads are StrategyStateReads').

  get warmingUp(): boolean {
    return this.host.warmingUp;
  }

  submit(intents: Intent | readonly Intent[]): void {
    if (!this.live) return;
    const problem = intentOutputProblem(intents);
    if (problem !== undefined) {
      reportRejection(this.sink, 'ctx.submit', intents);
      // Thrown inside the hook that called it, so the fault names that hook and the caller's line.
      throw intentOutputError('ctx.submit', 'was given', intents, problem);
    }
    sendIntents(this.sink, intents);
  }
  setTimer(delayMs: number, tag = ''): number {
    if (!Number.isFinite(delayMs))
      throw new RangeError(
        `strategy ${this.id}: setTimer(delayMs) needs a finite number of ms, got ${delayMs}`,
      );
    return this.host.setTimer(this, this.now() + delayMs, 0, tag);
  }
  setTimerAt(at: number, tag = ''): number {
    if (!Number.isFinite(at))
      throw new RangeError(`strategy ${this.id}: setTimerAt(at) needs a finite epoch ms, got ${at}`);
    return this.host.setTimer(this, at, 0, tag);
  }
  every(periodMs: number, tag = ''): number {
    if (!(periodMs > 0) || !Number.isFinite(periodMs))
      throw new RangeError(
        `strategy ${this.id}: every(periodMs) needs a finite periodMs > 0, got ${periodMs}`,
      );
    return this.host.setTimer(this, this.now() + periodMs, periodMs, tag);
  }
  cancelTimer(id: number): boolean {
    return this.host.cancelTimer(this, id);
  }
  watchBars(sym: string, interval: BarInterval): void {
    this.host.watchBars(this, sym, interval);
  }
  trailingStops(sym?: string): readonly TrailingStop[] {
    return this.host.trailingStopsOf(this, sym);
  }
  trailingStopUpdates(): Observable<TrailingStop> {
    return this.streams.trailingStop$.asObservable();
  }
  algoOrders(): Observable<AlgoOrder> {
    return this.streams.algoOrder$.asObservable();
  }
  quotes(sym: string): Observable<QuoteEvent> {
    return this.streams.quotes(sym);
  }
  trades(sym: string): Observable<MarketTradeEvent> {
    return this.streams.trades(sym);
  }
  bars(sym: string, interval: BarInterval): Observable<BarEvent> {
    this.watchBars(sym, interval);
    return this.streams.bars(barKey(sym, interval));
  }
  fills(): Observable<Execution> {
    return this.streams.fill$.asObservable();
  }
  orders(): Observable<Order> {
    return this.streams.order$.asObservable();
  }
  positions(): Observable<Position> {
    return this.streams.position$.asObservable();
  }
  denials(): Observable<IntentDenied> {
    return this.streams.denial$.asObservable();
  }
  timers(): Observable<TimerEvent> {
    return this.streams.timer$.asObservable();
  }
}

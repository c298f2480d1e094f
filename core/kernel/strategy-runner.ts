import type { Observable, Subscription } from 'rxjs';
import { Subject } from 'rxjs';
import type {
  Account,
  AlgoOrder,
  Asset,
  BarEvent,
  BarInterval,
  BookEvent,
  Dec,
  Execution,
  InstrumentSpec,
  Intent,
  LiquidationEventRecord,
  MarketTradeEvent,
  Order,
  Position,
  PositionMode,
  PositionSide,
  QuoteEvent,
} from '../model/index.ts';
import { positionKey, ZERO } from '../model/index.ts';
import type { StrategyDefinition, StrategyHooks } from './define-strategy.ts';
import { describeValue, intentOutputError, intentOutputProblem, isThenable } from './hook-output.ts';
import type { KernelState } from './kernel-state.ts';
import { OrderFactory } from './order-factory.ts';
import { type PositionSizer, positionSizer } from './position-sizer.ts';
import type { StrategyContext } from './strategy-context.ts';
import type { IntentDenied, IntentOutput, TimerEvent } from './strategy-events.ts';

/** What a runner needs from its kernel. */
export interface RunnerHost {
  readonly state: KernelState;
  submit(runner: StrategyRunner, intent: Intent): void;
  setTimer(runner: StrategyRunner, at: number, every: number, tag: string): number;
  cancelTimer(runner: StrategyRunner, id: number): boolean;
  watchBars(runner: StrategyRunner, sym: string, interval: BarInterval): void;
  fault(runner: StrategyRunner, where: string, error: unknown, how?: 'returned' | 'emitted'): void;
  rejected(runner: StrategyRunner, where: string, reason: unknown): void;
}

type Hook<E> = ((ctx: StrategyContext<unknown, unknown>, event: E) => IntentOutput) | undefined;

/**
 * One strategy inside a kernel: implements its {@link StrategyContext}, calls its hooks,
 * feeds its streams and turns what it returns into submissions. Internal to the kernel.
 */
export class StrategyRunner implements StrategyContext<unknown, unknown> {
  readonly order: OrderFactory;
  readonly size: PositionSizer;
  readonly state: unknown;
  /** Index in the kernel's runner list (timer ownership). */
  readonly index: number;
  /** False after stop or a fault: no more hooks, no more intents. */
  live = true;
  private refCounter = 0;
  /** Generated references not yet submitted: a generated reference may be submitted once. */
  private readonly issued = new Set<string>();
  /** `{id}-` or `{id}-{runId}-`: the prefix of every reference this strategy generates. */
  readonly refPrefix: string;
  private readonly hooks: StrategyHooks<unknown, unknown>;
  private readonly onQuote: Hook<QuoteEvent>;
  private readonly onTrade: Hook<MarketTradeEvent>;
  private quoteSubjects: Map<string, Subject<QuoteEvent>> | undefined;
  private tradeSubjects: Map<string, Subject<MarketTradeEvent>> | undefined;
  private readonly barSubjects = new Map<string, Subject<BarEvent>>();
  private readonly fill$ = new Subject<Execution>();
  private readonly order$ = new Subject<Order>();
  private readonly position$ = new Subject<Position>();
  private readonly denial$ = new Subject<IntentDenied>();
  private readonly timer$ = new Subject<TimerEvent>();
  private setupSubscription: Subscription | undefined;
  /** Set when the state factory failed: reported by {@link StrategyRunner.start}. */
  private stateError: { readonly error: unknown; readonly how?: 'returned' } | undefined;

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
    readonly id: string,
    index: number,
    private readonly definition: StrategyDefinition<unknown, unknown>,
    readonly params: unknown,
    runId: string,
    private readonly host: RunnerHost,
    readonly source?: string,
  ) {
    this.index = index;
    this.hooks = definition;
    this.onQuote = definition.onQuote as Hook<QuoteEvent>;
    this.onTrade = definition.onTrade as Hook<MarketTradeEvent>;
    this.refPrefix = runId === '' ? `${id}-` : `${id}-${runId}-`;
    // A state factory that fails is the strategy's fault, reported at start like a throw in
    // onStart (strategy, `state`, the line of the plugin), not a crash of the whole run.
    let state: unknown;
    try {
      state = definition.state === undefined ? undefined : definition.state(params);
    } catch (error) {
      this.stateError = { error };
    }
    if (this.stateError === undefined && isThenable(state)) {
      this.stateError = {
        error: new TypeError(
          'state returned a Promise (an async function?): the state factory must return the state itself, synchronously',
        ),
        how: 'returned',
      };
      this.reportRejection('state', state);
    }
    if (this.stateError !== undefined) this.live = false;
    this.state = state;
    const s = host.state;
    this.order = new OrderFactory({
      instrument: (sym) => s.instrument(sym),
      positionMode: () => s.positionMode(),
      positionQty: (sym, side) => s.positionQty(sym, side),
      orderByRef: (ref) => s.orderByRef(ref),
      algoSymByRef: (ref) => s.orders.algoByRef.get(ref)?.sym,
      nextRef: () => this.nextRef(),
    });
    this.size = positionSizer(this);
  }

  /** @returns the next generated caller reference: `{id}-{runId-}{counter in base 36}` */
  nextRef(): string {
    this.refCounter++;
    const ref = this.refPrefix + this.refCounter.toString(36);
    this.issued.add(ref);
    return ref;
  }

  /**
   * Takes a generated reference out of the issued set as it is submitted.
   * @param ref - a reference starting with this strategy's prefix
   * @returns true when this strategy generated it and it was not submitted before
   */
  redeem(ref: string): boolean {
    return this.issued.delete(ref);
  }

  /** Runs `setup` (subscribing to its intents) then `onStart`; reports a failed state factory instead. */
  start(): void {
    if (this.stateError !== undefined) {
      this.host.fault(this, 'state', this.stateError.error, this.stateError.how);
      return;
    }
    const setup = this.definition.setup;
    if (setup !== undefined) {
      let intents: Observable<Intent> | undefined;
      try {
        intents = setup(this);
      } catch (error) {
        this.host.fault(this, 'setup', error);
        return;
      }
      if (intents !== undefined && typeof (intents as { subscribe?: unknown }).subscribe !== 'function') {
        this.notIntents('setup', intents, 'an Observable of intents or nothing');
        return;
      }
      this.setupSubscription = intents?.subscribe({
        next: (intent) => {
          if (this.live) this.accept(intent, 'setup stream', 'emitted');
        },
        error: (error: unknown) => this.host.fault(this, 'setup stream', error),
      });
      // A stream that emits while it is subscribed can halt the strategy before it is assigned.
      if (!this.live) this.setupSubscription?.unsubscribe();
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
    for (const subject of [this.fill$, this.order$, this.position$, this.denial$, this.timer$])
      subject.complete();
    for (const subject of this.barSubjects.values()) subject.complete();
    for (const subject of this.quoteSubjects?.values() ?? []) subject.complete();
    for (const subject of this.tradeSubjects?.values() ?? []) subject.complete();
  }

  /** Hot path: one BBO update. */
  deliverQuote(event: QuoteEvent): void {
    if (!this.live) return;
    const hook = this.onQuote;
    if (hook !== undefined) {
      let out: IntentOutput;
      try {
        out = hook(this, event);
      } catch (error) {
        this.host.fault(this, 'onQuote', error);
        return;
      }
      if (out !== undefined) this.accept(out, 'onQuote', 'returned');
    }
    if (this.quoteSubjects !== undefined) this.quoteSubjects.get(event.sym)?.next(event);
  }

  /** Hot path: one public trade. */
  deliverTrade(event: MarketTradeEvent): void {
    if (!this.live) return;
    const hook = this.onTrade;
    if (hook !== undefined) {
      let out: IntentOutput;
      try {
        out = hook(this, event);
      } catch (error) {
        this.host.fault(this, 'onTrade', error);
        return;
      }
      if (out !== undefined) this.accept(out, 'onTrade', 'returned');
    }
    if (this.tradeSubjects !== undefined) this.tradeSubjects.get(event.sym)?.next(event);
  }

  /** A closed bar of a watched (sym, interval). */
  deliverBar(event: BarEvent): void {
    this.call('onBar', this.hooks.onBar, event);
    this.barSubjects.get(`${event.sym}|${event.interval}`)?.next(event);
  }

  /** An update of one of this strategy's orders. */
  deliverOrder(order: Order): void {
    this.call('onOrder', this.hooks.onOrder, order);
    if (this.live) this.order$.next(order);
  }

  /** A fill of one of this strategy's orders. */
  deliverFill(fill: Execution): void {
    this.call('onFill', this.hooks.onFill, fill);
    if (this.live) this.fill$.next(fill);
  }

  /** A position update (any position). */
  deliverPosition(position: Position): void {
    this.call('onPosition', this.hooks.onPosition, position);
    if (this.live) this.position$.next(position);
  }

  /** One of this strategy's timers fired. */
  deliverTimer(event: TimerEvent): void {
    this.call('onTimer', this.hooks.onTimer, event);
    if (this.live) this.timer$.next(event);
  }

  /** One of this strategy's intents was denied. */
  deliverDenial(denial: IntentDenied): void {
    this.call('onDenied', this.hooks.onDenied, denial);
    if (this.live) this.denial$.next(denial);
  }

  private call<E>(where: string, hook: Hook<E>, event: E): void {
    if (!this.live || hook === undefined) return;
    let out: IntentOutput;
    try {
      out = hook(this, event);
    } catch (error) {
      this.host.fault(this, where, error);
      return;
    }
    if (out !== undefined) this.accept(out, where, 'returned');
  }

  /**
   * Sends what a hook returned or the setup stream emitted, or halts the strategy when it is not
   * intents: a fault like a throw (the kernel's checks would otherwise crash on it), and nothing
   * of it is sent.
   */
  private accept(out: unknown, where: string, verb: 'returned' | 'emitted'): void {
    const problem = intentOutputProblem(out);
    if (problem !== undefined) {
      this.host.fault(this, where, intentOutputError(where, verb, out, problem), verb);
      this.reportRejection(where, out);
      return;
    }
    this.send(out as Intent | readonly Intent[] | undefined);
  }

  private send(out: Intent | readonly Intent[] | undefined): void {
    if (out === undefined) return;
    if (Array.isArray(out)) {
      for (const intent of out as readonly Intent[]) this.host.submit(this, intent);
    } else {
      this.host.submit(this, out as Intent);
    }
  }

  /** Halts the strategy because `where` gave something that is not what it must give. */
  private notIntents(where: string, value: unknown, expected: string): void {
    const what = isThenable(value) ? 'a Promise (an async function?)' : describeValue(value);
    this.host.fault(
      this,
      where,
      new TypeError(`${where} returned ${what}: it must return ${expected}, synchronously`),
      'returned',
    );
    this.reportRejection(where, value);
  }

  /**
   * A strategy's Promise is not awaited (the strategy is already halted and reported), but what it
   * rejects with is the user's own error: it goes to the kernel's rejection channel, to be logged,
   * instead of becoming an unhandled rejection that ends the process, or vanishing.
   */
  private reportRejection(where: string, value: unknown): void {
    if (!isThenable(value)) return;
    Promise.resolve(value).then(undefined, (reason: unknown) => this.host.rejected(this, where, reason));
  }

  // The StrategyContext methods: read the kernel state, never write it.

  now(): number {
    return this.host.state.now();
  }
  instrument(sym: string): InstrumentSpec | undefined {
    return this.host.state.instrument(sym);
  }
  quote(sym: string): QuoteEvent | undefined {
    return this.host.state.quotes.get(sym);
  }
  lastTrade(sym: string): MarketTradeEvent | undefined {
    return this.host.state.trades.get(sym);
  }
  book(sym: string): BookEvent | undefined {
    return this.host.state.books.get(sym);
  }
  markPrice(sym: string): number | undefined {
    return this.host.state.marks.get(sym)?.markPrice;
  }
  bar(sym: string, interval: BarInterval): BarEvent | undefined {
    return this.host.state.bar(sym, interval);
  }
  referencePrice(sym: string): number | undefined {
    return this.host.state.referencePrice(sym);
  }
  position(sym: string, positionSide: PositionSide = 'NONE'): Position | undefined {
    return this.host.state.positions.get(positionKey(sym, positionSide));
  }
  netQty(sym: string): Dec {
    const s = this.host.state;
    const net = s.positionQty(sym, 'NONE');
    const long = s.positionQty(sym, 'LONG');
    const short = s.positionQty(sym, 'SHORT');
    // NET mode (the usual case) has no LONG/SHORT legs: skip two Decimal additions per call.
    return long.isZero() && short.isZero() ? net : net.add(long).add(short);
  }
  positionList(): readonly Position[] {
    return [...this.host.state.positions.values()];
  }
  positionMode(): PositionMode {
    return this.host.state.positionMode();
  }
  openOrders(sym?: string): readonly Order[] {
    const { state } = this.host;
    return sym === undefined ? state.openOrders(this.id) : [...state.openOrdersOn(sym, this.id)];
  }
  allOpenOrders(sym?: string): readonly Order[] {
    const { state } = this.host;
    return sym === undefined ? state.openOrders() : [...state.openOrdersOn(sym)];
  }
  openAlgoOrders(sym?: string): readonly AlgoOrder[] {
    const mine = this.host.state.openAlgoOrders(this.id);
    return sym === undefined ? mine : mine.filter((o) => o.sym === sym);
  }
  orderByRef(ref: string): Order | undefined {
    return this.host.state.orderByRef(ref);
  }
  balance(coin: string): Dec {
    return this.host.state.assets.get(coin)?.balance ?? ZERO;
  }
  asset(coin: string): Asset | undefined {
    return this.host.state.assets.get(coin);
  }
  account(): Account | undefined {
    return this.host.state.account;
  }
  equity(): Dec {
    return this.host.state.equity();
  }
  liquidation(): LiquidationEventRecord | undefined {
    return this.host.state.liquidation;
  }
  adlRank(sym: string, positionSide: PositionSide = 'NONE'): number {
    return this.host.state.adlRanks.get(positionKey(sym, positionSide)) ?? 0;
  }
  submit(intents: Intent | readonly Intent[]): void {
    if (!this.live) return;
    const problem = intentOutputProblem(intents);
    if (problem !== undefined) {
      this.reportRejection('ctx.submit', intents);
      // Thrown inside the hook that called it, so the fault names that hook and the caller's line.
      throw intentOutputError('ctx.submit', 'was given', intents, problem);
    }
    this.send(intents);
  }
  setTimer(delayMs: number, tag = ''): number {
    return this.host.setTimer(this, this.now() + delayMs, 0, tag);
  }
  setTimerAt(at: number, tag = ''): number {
    return this.host.setTimer(this, at, 0, tag);
  }
  every(periodMs: number, tag = ''): number {
    if (!(periodMs > 0))
      throw new RangeError(`strategy ${this.id}: every(periodMs) needs periodMs > 0, got ${periodMs}`);
    return this.host.setTimer(this, this.now() + periodMs, periodMs, tag);
  }
  cancelTimer(id: number): boolean {
    return this.host.cancelTimer(this, id);
  }
  watchBars(sym: string, interval: BarInterval): void {
    this.host.watchBars(this, sym, interval);
  }
  quotes(sym: string): Observable<QuoteEvent> {
    this.quoteSubjects ??= new Map();
    return subjectFor(this.quoteSubjects, sym).asObservable();
  }
  trades(sym: string): Observable<MarketTradeEvent> {
    this.tradeSubjects ??= new Map();
    return subjectFor(this.tradeSubjects, sym).asObservable();
  }
  bars(sym: string, interval: BarInterval): Observable<BarEvent> {
    this.watchBars(sym, interval);
    return subjectFor(this.barSubjects, `${sym}|${interval}`).asObservable();
  }
  fills(): Observable<Execution> {
    return this.fill$.asObservable();
  }
  orders(): Observable<Order> {
    return this.order$.asObservable();
  }
  positions(): Observable<Position> {
    return this.position$.asObservable();
  }
  denials(): Observable<IntentDenied> {
    return this.denial$.asObservable();
  }
  timers(): Observable<TimerEvent> {
    return this.timer$.asObservable();
  }
}

function subjectFor<T>(map: Map<string, Subject<T>>, key: string): Subject<T> {
  let subject = map.get(key);
  if (subject === undefined) {
    subject = new Subject<T>();
    map.set(key, subject);
  }
  return subject;
}

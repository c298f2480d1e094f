import type { Observable } from 'rxjs';
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
import type { OrderFactory } from './order-factory.ts';
import type { PositionSizer } from './position-sizer.ts';
import type { IntentDenied, TimerEvent } from './strategy-events.ts';
import type { StrategyLoan } from './strategy-loan.ts';
import type { TrailingStop } from './trailing-stop.ts';

/**
 * What a strategy sees and can do: read-only state (the whole portfolio, but only its own
 * orders are "its"), an order factory, intent submission, timers, and event streams for the
 * reactive style. Every method reads the kernel's state as it is now; nothing here mutates it.
 */
export interface StrategyContext<P = unknown, S = unknown> {
  /** The strategy's id in this run (also the prefix of its generated references). */
  readonly id: string;
  /** The parameters, parsed by the strategy's zod schema. */
  readonly params: P;
  /** The strategy's own mutable state, made by its `state(params)` factory. */
  readonly state: S;
  /** Builds intents of every kind; see {@link OrderFactory}. */
  readonly order: OrderFactory;
  /** Position sizing on the lot grid: a fraction of equity, a cash amount, whole units; see {@link PositionSizer}. */
  readonly size: PositionSizer;
  /**
   * True while the run warms the strategies up on history (config `warmUp`): the hooks and
   * streams see past market data, `now()` is its time, and every intent is denied
   * (`kernel.warmUp`, to `onDenied`), so indicators fill without trading. False afterwards.
   */
  readonly warmingUp: boolean;

  /**
   * @returns the run's time, epoch ms: virtual in backtests, the replay's time in paper runs on
   *   the embedded paper venue (the time the events carry), the wall clock live
   */
  now(): number;
  /** @returns the instrument spec, or undefined when unknown */
  instrument(sym: string): InstrumentSpec | undefined;
  /** @returns the latest BBO of a sym */
  quote(sym: string): QuoteEvent | undefined;
  /** @returns the latest public trade of a sym */
  lastTrade(sym: string): MarketTradeEvent | undefined;
  /** @returns the latest order-book snapshot of a sym */
  book(sym: string): BookEvent | undefined;
  /** @returns the latest mark price of a perpetual */
  markPrice(sym: string): number | undefined;
  /** @returns the latest bar of a sym and interval (feed or aggregated) */
  bar(sym: string, interval: BarInterval): BarEvent | undefined;
  /** @returns the reference price: quote mid, else last trade, else mark, else the latest closed bar close */
  referencePrice(sym: string): number | undefined;

  /**
   * A position leg as the venue last reported it (avg price, margin, liqPrice): a fill booked
   * since is in {@link StrategyContext.netQty} at once, here only with the venue's next report.
   * @param sym - the symbol
   * @param positionSide - default NONE (NET mode); pass LONG or SHORT in BOTH mode
   * @returns the position, or undefined when never reported
   */
  position(sym: string, positionSide?: PositionSide): Position | undefined;
  /**
   * Signed net quantity of a sym over all legs: long > 0, short < 0, zero when flat. It counts
   * every fill booked, also one the venue has not reported in a position update yet. It is the
   * account's position, not this strategy's share: strategies trading one sym see each other's
   * fills here (as in {@link StrategyContext.position}).
   * @param sym - the symbol
   * @returns the net quantity
   */
  netQty(sym: string): Dec;
  /**
   * Signed quantity of one leg (a SHORT leg negative), counting every fill booked as
   * {@link StrategyContext.netQty} does, also one the venue has not reported in a position update
   * yet: in BOTH mode, what each leg holds right after a fill (`position()` has it only with the
   * venue's next report).
   * @param sym - the symbol
   * @param positionSide - NONE (NET mode), LONG or SHORT
   * @returns the leg's quantity, zero when flat
   */
  legQty(sym: string, positionSide: PositionSide): Dec;
  /** @returns every position leg reported so far (flat ones included) */
  positionList(): readonly Position[];
  /** @returns NET or BOTH */
  positionMode(): PositionMode;

  /** @returns this strategy's open orders, optionally on one sym */
  openOrders(sym?: string): readonly Order[];
  /** @returns every strategy's open orders (and orders placed outside Keel), optionally on one sym */
  allOpenOrders(sym?: string): readonly Order[];
  /** @returns this strategy's open algo orders, optionally on one sym */
  openAlgoOrders(sym?: string): readonly AlgoOrder[];
  /**
   * This strategy's open trailing stops: PENDING or ACTIVE, held by the kernel (Keel emulates
   * them; the venue sees nothing until one triggers and its MARKET order is sent). Not in
   * `openOrders()`; cancel one with `ctx.order.cancel(stop.ref)`.
   * @param sym - only on this sym when given
   * @returns the stops with their current stop price, oldest first
   */
  trailingStops(sym?: string): readonly TrailingStop[];
  /** @returns an order by its clientOrderId, whoever owns it */
  orderByRef(ref: string): Order | undefined;
  /**
   * An algo order by its clientAlgoOrderId, whoever owns it, open or finished (a finished one while
   * Keel remembers it: the last 10 000 finished), as the venue last reported it with Keel's marks:
   * `pending` while a cancel or replace of it is in flight, `cancelReason` once CANCELLED. An algo
   * order sent and not answered yet is not here (the venue has not numbered it).
   * @param ref - the clientAlgoOrderId (the `ref` of `ctx.order.algo`)
   * @returns the algo order, or undefined
   */
  algoOrderByRef(ref: string): AlgoOrder | undefined;

  /**
   * @returns the balance of a coin, zero when unknown: a venue whose account reply lists no
   *   assets tells a coin's balance only when it pushes it (on a change); `asset(coin)` is
   *   undefined until then, so a strategy that must tell "unknown" from 0 reads that
   */
  balance(coin: string): Dec;
  /** @returns the asset record of a coin; undefined while the venue has not reported it */
  asset(coin: string): Asset | undefined;
  /** @returns the account summary, once reported */
  account(): Account | undefined;
  /** @returns portfolio equity in the settlement currency */
  equity(): Dec;
  /**
   * The margin loans outstanding as last reported: principal, interest accrued and annual rate,
   * and the interest a repay of the whole principal now charges besides (`interestDue`: the hour
   * under way, which `interest` leaves out until it is charged; buy back `principal` plus it before
   * repaying a borrowed coin you sold, see {@link StrategyLoan.interestDue}).
   * A backtest's simulated venue reports a loan at each borrow, repay and hourly interest charge;
   * live, the venue pushes no loan updates, so Keel reads the loans after each borrow or repay the
   * run sends and after each liquidation node pushed (a liquidation repays loans itself), and the
   * interest is as of that read (the coin's `asset(coin).loan` is pushed).
   * @param coin - only loans of this coin when given
   * @returns loans with principal left (a repaid loan is gone, whatever interest it was charged),
   *   in the order first reported
   */
  loans(coin?: string): readonly StrategyLoan[];
  /** @returns the latest liquidation node, if a liquidation ever started */
  liquidation(): LiquidationEventRecord | undefined;
  /** @returns ADL rank 1-5 of a position leg, 0 when unknown */
  adlRank(sym: string, positionSide?: PositionSide): number;

  /**
   * Sends intents through the risk gate to execution. A denial comes back as an event
   * (`onDenied`, `denials()`), never as an exception.
   * @param intents - one intent or several
   * @throws TypeError when given something that is not intents (e.g. an array holding undefined,
   *   or a Promise); thrown inside a hook, it halts the strategy as a fault of that hook
   */
  submit(intents: Intent | readonly Intent[]): void;
  /**
   * Sets a one-shot timer.
   * @param delayMs - from now, finite; zero or negative fires it at once, as a time past does
   *   ({@link StrategyContext.setTimerAt})
   * @param tag - passed back in the timer event
   * @returns the timer id
   * @throws RangeError when delayMs is NaN or infinite; thrown inside a hook, it halts the strategy
   *   as a fault of that hook
   */
  setTimer(delayMs: number, tag?: string): number;
  /**
   * Sets a one-shot timer at an absolute time.
   * @param at - epoch ms, finite; a time already past fires it at once (in a backtest and a
   *   lockstep paper session before the next event; its timer event's `ts` is still `at`)
   * @param tag - passed back in the timer event
   * @returns the timer id
   * @throws RangeError when at is NaN or infinite, as setTimer
   */
  setTimerAt(at: number, tag?: string): number;
  /**
   * Sets a repeating timer, first firing one period from now.
   * @param periodMs - the period, finite and > 0
   * @param tag - passed back in each timer event
   * @returns the timer id
   * @throws RangeError when periodMs is not a finite number above 0, as setTimer
   */
  every(periodMs: number, tag?: string): number;
  /** Cancels a timer. @returns true when it was pending */
  cancelTimer(id: number): boolean;
  /**
   * Delivers closed bars of a sym and interval to `onBar` (from the feed's KLINE, or built from
   * its finer klines or its trades when it has none of that interval).
   */
  watchBars(sym: string, interval: BarInterval): void;

  /** @returns BBO updates of a sym */
  quotes(sym: string): Observable<QuoteEvent>;
  /** @returns public trades of a sym */
  trades(sym: string): Observable<MarketTradeEvent>;
  /** @returns closed bars of a sym and interval (watches them) */
  bars(sym: string, interval: BarInterval): Observable<BarEvent>;
  /**
   * @returns fills of this strategy's orders; as with `onFill`, the order and position may not
   *   reflect a fill yet when it is emitted (react to a completed order on `orders()` with FILLED)
   */
  fills(): Observable<Execution>;
  /** @returns updates of this strategy's orders */
  orders(): Observable<Order>;
  /** @returns every position update */
  positions(): Observable<Position>;
  /** @returns this strategy's denied intents */
  denials(): Observable<IntentDenied>;
  /** @returns this strategy's timer events */
  timers(): Observable<TimerEvent>;
  /** @returns status changes of this strategy's emulated trailing stops (as `onTrailingStop`) */
  trailingStopUpdates(): Observable<TrailingStop>;
  /** @returns the venue's reports of this strategy's algo orders (as `onAlgoOrder`) */
  algoOrders(): Observable<AlgoOrder>;
}

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
  LiquidationEventRecord,
  LiquidationPositionRecord,
  Loan,
  MarketTradeEvent,
  MarkPriceEvent,
  Order,
  PlaceAlgoOrderIntent,
  Position,
  PositionMode,
  PositionSide,
  QuoteEvent,
  ReplaceAlgoOrderIntent,
} from '../model/index.ts';
import { ZERO } from '../model/index.ts';
import type { Portfolio } from '../portfolio/index.ts';
import type { OpenOrderFilter, RestingAlgoOrder, RiskView } from '../risk/index.ts';
import { AlgoOrderRequests } from './algo-order-requests.ts';
import { barKey } from './bar-keys.ts';
import { BookedFills } from './booked-fills.ts';
import type { Clock } from './clock.ts';
import { CommandSyms } from './command-syms.ts';
import type { EquityEstimate } from './equity-estimate.ts';
import { InFlightAlgoOrders } from './in-flight-algo-orders.ts';
import { type CloseOrdering, InFlightCloses } from './in-flight-closes.ts';
import { InFlightRequests } from './in-flight-requests.ts';
import { equityEstimateOf, equityOf, grossExposureOf } from './kernel-equity.ts';
import { legQty } from './leg-quantity.ts';
import { referencePriceOf, venueMarkPriceOf, venueMarkTimeOf } from './market-prices.ts';
import {
  countOpenAlgoOrdersOf,
  countOpenOrdersOf,
  forEachOpenAlgoOrderOf,
  forEachOpenOrderOf,
  legMayGrow,
  openAlgoOrdersOf,
  openOrdersOf,
  openOrdersOnSym,
} from './open-order-queries.ts';
import { OrderRegistry } from './order-registry.ts';
import { PositionLegKeys } from './position-leg-keys.ts';
import { UnreportedFills } from './unreported-fills.ts';
import { VenueEquityMarks } from './venue-equity-marks.ts';

/**
 * The one state the kernel folds every event into. Strategies read it through their context,
 * the risk gate through {@link RiskView}; only the kernel writes it. Market data is kept as the
 * events themselves (numbers, no copies), money as the venue's Decimals.
 */
export class KernelState implements RiskView {
  readonly orders = new OrderRegistry(undefined, () => this.clock.now());
  readonly quotes = new Map<string, QuoteEvent>();
  readonly trades = new Map<string, MarketTradeEvent>();
  readonly marks = new Map<string, MarkPriceEvent>();
  readonly books = new Map<string, BookEvent>();
  /** Latest bar per `sym|interval`, from the feed or built from finer feed bars or trades. */
  readonly bars = new Map<string, BarEvent>();
  /** Latest closed feed bar per sym (any interval): the price of last resort on bar-only data. */
  readonly closedBars = new Map<string, BarEvent>();
  /** Positions by `sym|positionSide`. */
  readonly positions = new Map<string, Position>();
  readonly #legKeys = new PositionLegKeys();
  readonly #unreported = new UnreportedFills();
  readonly assets = new Map<string, Asset>();
  /** Loans by `exchange|coin`. */
  readonly loans = new Map<string, Loan>();
  /** ADL rank by `sym|positionSide` (1 lowest to 5 highest). */
  readonly adlRanks = new Map<string, number>();
  /** transactionIds of the most recent fills, so a fill delivered twice (reconnect, replay) counts once. */
  private readonly bookedFills = new BookedFills();
  /** Liquidation positions reported for the current (latest) liquidation event. */
  readonly liquidationPositions: LiquidationPositionRecord[] = [];
  account: Account | undefined;
  /** The latest liquidation node reached, if a liquidation ever started. */
  liquidation: LiquidationEventRecord | undefined;
  private readonly instruments: ReadonlyMap<string, InstrumentSpec>;
  readonly #venueMarks = new VenueEquityMarks();
  /**
   * Keel's book of modify and cancel requests in flight: the intent pipeline records them, the
   * User Data routing ends them, the risk gate counts a modify at the larger qty it asks for.
   */
  readonly requests = new InFlightRequests(this.orders);
  /** The position closes in flight: the risk gate counts each as claiming the leg it closes. */
  readonly closes: InFlightCloses;
  /** The algo orders sent and not answered yet: the risk gate counts them as open algo orders. */
  readonly algosInFlight = new InFlightAlgoOrders();
  /**
   * Keel's cancels, replaces and closes in flight on algo orders: the intent pipeline records them,
   * the User Data routing ends them, and they mark an algo order `pending` and name why it ended
   * CANCELLED.
   */
  readonly algoRequests = new AlgoOrderRequests();
  /** The syms of the commands sent lately, for the denial of one the venue refuses. */
  readonly commandSyms = new CommandSyms();
  #heldTrailingStops: (strategyId?: string) => number = () => 0;

  /**
   * @param clock - the run's clock
   * @param instruments - every instrument the run may see
   * @param portfolio - Keel's own Decimal ledger, fed with every fill; when given, equity and
   *   gross exposure come from it, otherwise from the venue's account and positions
   * @param closeOrdering - whether the venue makes the close orders of a leg in the order the
   *   closes were sent (see {@link CloseOrdering}); default `unknown`
   */
  constructor(
    private readonly clock: Clock,
    instruments: readonly InstrumentSpec[],
    readonly portfolio?: Portfolio,
    closeOrdering: CloseOrdering = 'unknown',
  ) {
    this.instruments = new Map(instruments.map((spec) => [spec.sym, spec]));
    this.closes = new InFlightCloses(
      (sym, side) => this.positionQty(sym, side),
      (sym, side) => this.legMayGrow(sym, side),
      closeOrdering,
    );
  }

  /** @returns the run's current time, epoch ms */
  now(): number {
    return this.clock.now();
  }

  /**
   * @param sym - the symbol
   * @returns its spec, or undefined when unknown
   */
  instrument(sym: string): InstrumentSpec | undefined {
    return this.instruments.get(sym);
  }

  /**
   * Books a fill's transactionId unless already booked (the most recent are remembered, see
   * {@link BookedFills}).
   * @param transactionId - the execution's id
   * @returns true the first time, false for a duplicate
   */
  bookFill(transactionId: string): boolean {
    return this.bookedFills.book(transactionId);
  }

  /**
   * The price orders are judged and positions valued at: quote mid, else last trade, else mark,
   * else the latest closed bar's close (Keel's choice, see {@link referencePriceOf}).
   * @param sym - the symbol
   * @returns the reference price, or undefined before any market data
   */
  referencePrice(sym: string): number | undefined {
    return referencePriceOf(this, sym);
  }

  /**
   * Signed quantity of one position leg: long > 0, short < 0 (a SHORT leg reported with a
   * positive size is negated), zero when flat. It is the venue's latest position update plus the
   * fills booked since that the venue has not reported in one yet (see {@link UnreportedFills}).
   * @param sym - the symbol
   * @param positionSide - NONE, LONG or SHORT
   * @returns the signed quantity
   */
  positionQty(sym: string, positionSide: PositionSide): Dec {
    return legQty(this.positions, this.#unreported, this.#legKeys.of(sym, positionSide), positionSide);
  }

  /**
   * The net position of a sym: the sum of its three legs' {@link KernelState.positionQty}; in
   * NET mode (no LONG or SHORT leg) the NONE leg's quantity itself.
   * @param sym - the symbol
   * @returns the signed quantity
   */
  netQty(sym: string): Dec {
    const keys = this.#legKeys.legsOf(sym);
    const net = legQty(this.positions, this.#unreported, keys.NONE, 'NONE');
    const long = legQty(this.positions, this.#unreported, keys.LONG, 'LONG');
    const short = legQty(this.positions, this.#unreported, keys.SHORT, 'SHORT');
    // NET mode (the usual case) has no LONG/SHORT legs: skip two Decimal additions per call.
    return long.isZero() && short.isZero() ? net : net.add(long).add(short);
  }

  /**
   * @param sym - the symbol
   * @param positionSide - NONE, LONG or SHORT
   * @returns the leg's key in {@link KernelState.positions} (`sym|positionSide`), built once per sym
   */
  legKey(sym: string, positionSide: PositionSide): string {
    return this.#legKeys.of(sym, positionSide);
  }

  /**
   * Counts a booked fill in its leg's quantity until the venue reports the leg.
   * @param execution - the fill, booked once
   */
  noteFill(execution: Execution): void {
    this.#unreported.add(this.#legKeys.of(execution.sym, execution.positionSide), execution);
  }

  /** @returns the account's position mode; NET until the venue says otherwise */
  positionMode(): PositionMode {
    return this.account?.positionMode ?? 'NET';
  }

  /**
   * Open (non-final) orders, in the order first seen.
   * @param strategyId - only this strategy's, when given
   * @returns the orders
   */
  openOrders(strategyId?: string): readonly Order[] {
    return openOrdersOf(this.orders, strategyId);
  }

  /**
   * Hands each open order to `visit`, in the order first seen, without making a list of them.
   * @param strategyId - only this strategy's, when given
   * @param visit - called once per order
   */
  forEachOpenOrder(strategyId: string | undefined, visit: (order: Order) => void): void {
    forEachOpenOrderOf(this.orders, strategyId, visit);
  }

  /**
   * How many orders are open, from the registry's indices (no walk over the open orders).
   * @param filter - only one strategy's, only one sym's, or both
   * @returns the count
   */
  countOpenOrders(filter: OpenOrderFilter = {}): number {
    return countOpenOrdersOf(this.orders, filter);
  }

  /**
   * The open orders on one sym, in the order first seen on that sym, walking only that sym's orders.
   * @param sym - the symbol
   * @param strategyId - only this strategy's, when given
   * @returns the orders, a new list
   */
  openOrdersOn(sym: string, strategyId?: string): Order[] {
    return openOrdersOnSym(this.orders, sym, strategyId);
  }

  /**
   * The strategy that placed an order, or the order the venue placed on its behalf (a tp/sl
   * attachment, a fired algo order's order).
   * @param clientOrderId - the caller reference
   * @returns the strategy id, or undefined for an order placed outside this run
   */
  ownerOf(clientOrderId: string): string | undefined {
    return this.orders.ownerOf(clientOrderId);
  }

  /**
   * @param order - an open order, as the registry holds it
   * @returns the largest qty the modifies in flight on it ask for, undefined when none does
   */
  inFlightModifyQty(order: Order): Dec | undefined {
    return this.requests.claimedQty(order);
  }

  /**
   * @param order - an open order, as the registry holds it
   * @returns the largest price the modifies in flight on it ask for, undefined when none does
   */
  inFlightModifyPrice(order: Order): Dec | undefined {
    return this.requests.claimedPrice(order);
  }

  /**
   * @param sym - the symbol
   * @param positionSide - the leg
   * @param strategyId - only this strategy's closes, when given
   * @returns the signed size of the leg closes in flight will close, zero when none
   */
  closingPositionQty(sym: string, positionSide: PositionSide, strategyId?: string): Dec {
    return this.closes.idle ? ZERO : this.closes.closingQty(sym, positionSide, strategyId);
  }

  /**
   * @param sym - the symbol
   * @param positionSide - the leg
   * @returns whether an order or algo order open on the leg, or sent, could open or grow it
   *   (see {@link legMayGrow})
   */
  legMayGrow(sym: string, positionSide: PositionSide): boolean {
    return legMayGrow(this.orders, sym, positionSide);
  }

  /**
   * @param clientAlgoOrderId - the caller reference
   * @returns the algo order, open or finished, or undefined
   */
  algoOrderByRef(clientAlgoOrderId: string): AlgoOrder | undefined {
    return this.orders.algoByRef.get(clientAlgoOrderId);
  }

  /**
   * @param clientAlgoOrderId - the caller reference
   * @returns the algo order as sent (replaces since merged in) while the venue has not answered it, else undefined
   */
  inFlightAlgoOrder(clientAlgoOrderId: string): PlaceAlgoOrderIntent | undefined {
    return this.algosInFlight.sentAs(clientAlgoOrderId);
  }

  /**
   * @param clientAlgoOrderId - the caller reference of an algo order the venue acknowledged
   * @returns the replaces sent on it and not answered yet, in sending order
   */
  inFlightAlgoReplaces(clientAlgoOrderId: string): readonly ReplaceAlgoOrderIntent[] {
    return this.algosInFlight.replacesOf(clientAlgoOrderId);
  }

  /**
   * Algo orders that may still put an order on the book: open ones and those sent and not
   * answered yet (see {@link countOpenAlgoOrdersOf}).
   * @param strategyId - only this strategy's, when given
   * @returns the count
   */
  countOpenAlgoOrders(strategyId?: string): number {
    return countOpenAlgoOrdersOf(this.orders, strategyId) + this.algosInFlight.count(strategyId);
  }

  /**
   * Hands each algo order that may still put an order on the book to `visit`: the open ones, then
   * those sent and not answered yet (as sent, with the replaces sent on them since merged in).
   * @param strategyId - only this strategy's, when given
   * @param visit - called once per algo order
   */
  forEachOpenAlgoOrder(strategyId: string | undefined, visit: (algo: RestingAlgoOrder) => void): void {
    forEachOpenAlgoOrderOf(this.orders, strategyId, visit);
    this.algosInFlight.forEachSent(strategyId, visit);
  }

  /**
   * How many trailing stops the kernel holds and has not fired yet, from the source the kernel
   * set ({@link countTrailingStopsWith}); zero until it set one.
   * @param strategyId - only this strategy's, when given
   * @returns the count
   */
  countHeldTrailingStops(strategyId?: string): number {
    return this.#heldTrailingStops(strategyId);
  }

  /**
   * Sets where {@link countHeldTrailingStops} counts from: the kernel's trailing stop emulator,
   * which is built on this state and so comes after it.
   * @param count - how many stops are held, all strategies' or one strategy's
   */
  countTrailingStopsWith(count: (strategyId?: string) => number): void {
    this.#heldTrailingStops = count;
  }

  /**
   * Open algo orders, in the order first seen.
   * @param strategyId - only this strategy's, when given
   * @returns the algo orders
   */
  openAlgoOrders(strategyId?: string): readonly AlgoOrder[] {
    return openAlgoOrdersOf(this.orders, strategyId);
  }

  /**
   * @param clientOrderId - the caller reference
   * @returns the order, final or not, or undefined
   */
  orderByRef(clientOrderId: string): Order | undefined {
    return this.orders.byRef.get(clientOrderId);
  }

  /**
   * Portfolio equity: Keel's ledger or the venue's reports, marked at the latest prices (see
   * {@link equityOf}). Computed on demand (per intent, not per market event).
   * @returns equity in the settlement currency
   */
  equity(): Dec {
    return equityOf(this, this.#venueMarks);
  }

  /**
   * {@link KernelState.equity} on numbers, with a bound of its distance to the exact equity, for
   * decisions that need no more (see {@link equityEstimateOf}).
   * @returns the estimate, or undefined when only the exact equity is known
   */
  equityEstimate(): EquityEstimate | undefined {
    return equityEstimateOf(this, this.#venueMarks);
  }

  /**
   * Folds a position report of the venue, unless the leg was reported at a later `updateAt`
   * already (pushes delivered out of order, a snapshot read before a push): a stale report
   * changes nothing. A report of the same time replaces the one before, as the venue's latest word.
   * @param position - the leg as the venue reports it
   * @returns false when the report is stale and changed nothing
   */
  applyPosition(position: Position): boolean {
    const key = this.#legKeys.of(position.sym, position.positionSide);
    if (!this.#unreported.reported(key, position, this.positions.get(key))) return false;
    this.positions.set(key, position);
    this.#venueMarks.positionArrived(key, position, this);
    return true;
  }

  /**
   * Folds an account report of the venue: its equity valued open positions at the venue's mark
   * at its time (see {@link VenueEquityMarks}).
   * @param account - the account as the venue reports it
   * @param ts - the report's venue time (its event's `ts`)
   */
  applyAccount(account: Account, ts: number): void {
    this.account = account;
    this.#venueMarks.rebase(this, ts);
  }

  /**
   * Folds an asset report of the venue; its equity is the account's only while no account
   * report came.
   * @param asset - the asset as the venue reports it
   * @param ts - the report's venue time (its event's `ts`)
   */
  applyAsset(asset: Asset, ts: number): void {
    this.assets.set(asset.coin, asset);
    if (this.account === undefined) this.#venueMarks.rebase(this, ts);
  }

  /**
   * A price of the sym was folded: the venue's latest equity report may have held a leg at it
   * (see {@link VenueEquityMarks.priceArrived}). Nothing to do, but one check, once the prices
   * stamped up to that report came.
   * @param sym - the sym whose market data just arrived
   */
  priceArrived(sym: string): void {
    if (this.#venueMarks.awaitingPrices) this.#venueMarks.priceArrived(sym, this);
  }

  /**
   * The price the venue values positions at, as far as Keel has seen: mark, else the latest
   * trade or closed bar, else quote mid (Keel's choice, see {@link venueMarkPriceOf}).
   * @param sym - the symbol
   * @returns the price, or undefined before any market data
   */
  venueMarkPrice(sym: string): number | undefined {
    return venueMarkPriceOf(this, sym);
  }

  /**
   * @param sym - the symbol
   * @returns the venue time of the event {@link KernelState.venueMarkPrice} comes from, or undefined
   */
  venueMarkTime(sym: string): number | undefined {
    return venueMarkTimeOf(this, sym);
  }

  /**
   * Gross exposure (sum of |position value|), from Keel's ledger or the venue's reports (see
   * {@link grossExposureOf}).
   * @returns the exposure in the settlement currency
   */
  grossExposure(): Dec {
    return grossExposureOf(this);
  }

  /**
   * @param sym - the symbol
   * @param interval - the bar interval
   * @returns the latest bar (forming or closed), or undefined
   */
  bar(sym: string, interval: BarInterval): BarEvent | undefined {
    return this.bars.get(barKey(sym, interval));
  }
}

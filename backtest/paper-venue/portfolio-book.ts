import { type RandomSource, seededRandom } from '../../core/kernel/index.ts';
import {
  type AlgoOrder,
  type Dec,
  type Execution,
  type InstrumentSpec,
  type Intent,
  isFinalOrderState,
  type LiquidationEventRecord,
  type Loan,
  type MarketEvent,
  type Order,
  type Position,
  type PositionMode,
  type UserEvent,
} from '../../core/model/index.ts';
import type { ApprovedIntent } from '../../core/risk/index.ts';
import type { MarginLoanOrderWire, PositionHistoryWire } from '../../core/venue/index.ts';
import {
  createSimVenue,
  type FillModelName,
  type FillModelOptions,
  type LatencyOptions,
  type LoanOptions,
  type LoanPrincipal,
  type SimVenue,
  ZERO_LATENCY,
} from '../sim/index.ts';
import { referenceRandom, seededUuid } from './generated-reference.ts';
import { RETAIN_HISTORY, trimHistory } from './history-retention.ts';
import { decimalsAsText, derivedPrice } from './wire-views.ts';

/** Settings of one paper portfolio (the main one or a sub-portfolio). */
export interface PaperPortfolioOptions {
  readonly portfolioId: string;
  /** The API key whose requests act on this portfolio. */
  readonly apiKey: string;
  readonly apiSecret: string;
  /** Starting balances per coin. */
  readonly startingBalances: Readonly<Record<string, Dec>>;
  /**
   * This portfolio's sub-portfolio fee markup (a fraction of notional, precision 0.01 bps, not
   * negative): the sim's `subPortfolioMarkup`, charged on top of each instrument's own
   * `fees.markup`, so a markup given here must not be in the instrument specs too. Default 0.
   */
  readonly feeMarkup?: Dec;
  /** Default NET. */
  readonly positionMode?: PositionMode;
}

/** What every portfolio of one venue shares. */
export interface PortfolioMarket {
  readonly instruments: readonly InstrumentSpec[];
  readonly fillModel: FillModelName | FillModelOptions;
  /** Seed of the sim's random source (the User Data leg's jitter). */
  readonly seed: number;
  /**
   * The configured latency. The sims apply only its User Data leg (stamping each event's receive
   * time); the venue delays order entry itself, so a command's reply waits for its processing, and
   * tells the sims that delay for the bar cutoff (`upstreamOrderEntry`).
   */
  readonly latency?: LatencyOptions;
  /** Margin-loan terms, shared by every portfolio (the per-user quota is shared, spec). */
  readonly loans?: LoanOptions;
  /**
   * Every loan of the venue's portfolios (see {@link venueLoansOf}): each sim counts its borrows'
   * quota and pool against them. Absent: each portfolio's own.
   */
  readonly venueLoans?: () => Iterable<LoanPrincipal>;
  /** How many final orders, executions and closed positions each portfolio keeps (default {@link RETAIN_HISTORY}; small in tests). */
  readonly retainHistory?: number;
}

/**
 * The loans outstanding at a venue: every portfolio's, as the per-user quota (shared across
 * portfolios, spec) and the exchanges' pools count them.
 * @param books - the venue's portfolios
 * @returns each loan with principal left, portfolio by portfolio
 */
export function* venueLoansOf(books: ReadonlyMap<string, PortfolioBook>): Generator<LoanPrincipal> {
  for (const book of books.values()) yield* book.sim.loans();
}

/**
 * One paper portfolio: a simulated venue plus the records the REST queries serve (order history,
 * executions, position history, algo orders, loan orders), folded from the sim's User Data events.
 * Orders, executions, closed positions, algo orders, loan orders and liquidation events are kept
 * as {@link RETAIN_HISTORY} says.
 * The sim runs with zero order-entry latency (the venue holds a command back for its order-entry
 * delay before `run`, and names that delay as the sim's `upstreamOrderEntry`) and the configured
 * User Data leg, which stamps each event's `recvTs`.
 */
export class PortfolioBook {
  readonly portfolioId: string;
  readonly isMain: boolean;
  readonly options: PaperPortfolioOptions;
  readonly sim: SimVenue;
  /** The venue's instruments by sym. */
  readonly instruments: ReadonlyMap<string, InstrumentSpec>;
  /** Sub-portfolio fee markup (a rate): the configured one, or the last set through the broker endpoint. */
  markup: Dec | undefined;
  /** Every open order and at least the last {@link RETAIN_HISTORY} final ones, by orderId. */
  readonly orders = new Map<string, Order>();
  readonly orderIdByRef = new Map<string, string>();
  /** At least the last {@link RETAIN_HISTORY} executions, oldest first. */
  readonly executions: Execution[] = [];
  /** Each order's latest execution, by orderId (lastExecutedQty / lastExecutedPrice on the wire). */
  readonly lastExecutions = new Map<string, Execution>();
  /**
   * The sub-portfolio markup each execution paid, as the sim charged it, by transactionId
   * (collection records); only executions that paid one.
   */
  readonly markupCharged = new Map<string, Dec>();
  readonly positions = new Map<string, Position>();
  /** At least the last {@link RETAIN_HISTORY} closed positions, oldest first. */
  readonly positionHistory: PositionHistoryWire[] = [];
  /** Every open algo order and at least the last {@link RETAIN_HISTORY} final ones, by algoOrderId, in placing order. */
  readonly algos = new Map<string, AlgoOrder>();
  /** The algoOrderId of each kept algo order's clientAlgoOrderId (the newest order of a reused one). */
  readonly algoIdByRef = new Map<string, string>();
  /** The algoOrderIds of the open algo orders, in placing order. */
  readonly openAlgoIds = new Set<string>();
  readonly loans = new Map<string, Loan>();
  /** At least the last {@link RETAIN_HISTORY} loan orders, oldest first. */
  readonly loanOrders: MarginLoanOrderWire[] = [];
  /** The nodes of at least the last {@link RETAIN_HISTORY} liquidation events, by liquidationEventId. */
  readonly liquidations = new Map<string, LiquidationEventRecord[]>();
  positionMode: PositionMode;
  private readonly listeners = new Set<(event: UserEvent) => void>();
  private captured: UserEvent[] | undefined;
  private refSeq = 1;
  private readonly referenceRandom: RandomSource;
  /** The orderIds of the final orders kept, oldest first. */
  private readonly finalOrderIds: string[] = [];
  /** The algoOrderIds of the final algo orders kept, oldest first. */
  private readonly finalAlgoIds: string[] = [];
  /** The liquidationEventIds kept, oldest first. */
  private readonly liquidationIds: string[] = [];
  /** How many loan orders this portfolio has made (their ids count on past the ones forgotten). */
  private loanOrderCount = 0;
  private readonly retain: number;

  /**
   * @param options - the portfolio
   * @param market - instruments, fill model and seed shared by the venue
   * @param isMain - true for the main portfolio
   */
  constructor(options: PaperPortfolioOptions, market: PortfolioMarket, isMain: boolean) {
    this.portfolioId = options.portfolioId;
    this.options = options;
    this.isMain = isMain;
    this.markup = options.feeMarkup;
    this.instruments = new Map(market.instruments.map((spec) => [spec.sym, spec]));
    this.positionMode = options.positionMode ?? 'NET';
    this.retain = market.retainHistory ?? RETAIN_HISTORY;
    this.referenceRandom = referenceRandom(market.seed, options.portfolioId);
    this.sim = createSimVenue({
      instruments: market.instruments,
      fillModel: market.fillModel,
      latency:
        market.latency === undefined
          ? ZERO_LATENCY
          : {
              orderEntry: ZERO_LATENCY.orderEntry,
              marketData: market.latency.marketData,
              ...(market.latency.userData === undefined ? {} : { userData: market.latency.userData }),
            },
      // The venue holds each command back for its order-entry delay: the bar cutoff must allow it.
      ...(market.latency === undefined ? {} : { upstreamOrderEntry: market.latency.orderEntry }),
      startingBalances: options.startingBalances,
      positionMode: this.positionMode,
      random: seededRandom(market.seed),
      portfolioId: options.portfolioId,
      // A refused place is the reply's error envelope, as live: no order, no push, id reusable.
      placementRefusals: 'commandRejected',
      ...(market.loans === undefined ? {} : { loans: market.loans }),
      ...(market.venueLoans === undefined ? {} : { venueLoans: market.venueLoans }),
      ...(options.feeMarkup === undefined ? {} : { subPortfolioMarkup: options.feeMarkup }),
    });
    this.sim.events.subscribe((event) => this.fold(event));
  }

  /**
   * Runs one command on the sim at its current virtual time. The client's risk gate already ran
   * before the request crossed the wire: the paper venue is the venue side, so it brands the
   * command itself (this is the one place it does).
   * @param intent - the command, from a REST request or a WebSocket message
   * @returns the User Data events the command produced, in order
   */
  run(intent: Intent): UserEvent[] {
    const captured: UserEvent[] = [];
    this.captured = captured;
    try {
      this.sim.submit({ strategyId: 'paper-venue', intent } as ApprovedIntent);
      this.moveSim(this.sim.now());
    } finally {
      this.captured = undefined;
    }
    if (intent.kind === 'setPositionMode' && !captured.some((e) => e.kind === 'commandRejected')) {
      this.positionMode = intent.positionMode;
    }
    return captured;
  }

  /**
   * Moves the sim's time to the moment a delayed command reaches it (never backwards), so the
   * command's events carry its arrival time, as in a backtest.
   * @param ts - the arrival, venue ms
   */
  advanceTo(ts: number): void {
    if (ts > this.sim.now()) this.moveSim(ts);
  }

  /**
   * Moves the sim to `ts`, running the commands due by then. On the bar fill model the venue's
   * timers inside the span of the bar it has yet to receive (an expiry, a TIME release, interest)
   * wait for that bar, as in a backtest: the bar's prices span its whole interval, so an order
   * live at its open meets all of it before it expires.
   */
  private moveSim(ts: number): void {
    this.sim.advanceTo(ts, Math.min(ts, this.sim.nextBarOpen()));
  }

  /**
   * Sets the portfolio's fee markup: reported by the broker endpoints and charged by the sim on
   * every fill from now on.
   * @param markup - the markup as a rate (0.000001 = 0.01 bps)
   * @throws RangeError when the markup is negative or finer than 0.01 bps
   */
  setMarkup(markup: Dec): void {
    this.sim.setFeeMarkup(markup);
    this.markup = markup;
  }

  /**
   * Feeds one market event to the sim (matching, triggers, funding, liquidation).
   * @param event - the decoded market event
   */
  onMarket(event: MarketEvent): void {
    this.sim.onMarket(event);
  }

  /**
   * Listens to the portfolio's User Data events.
   * @param listener - called synchronously for each event
   * @returns a function that stops listening
   */
  listen(listener: (event: UserEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A caller reference for a command the client sent without one, other than a `PLACE_ORDER`'s
   * (see {@link PortfolioBook.newPlaceOrderReference}): a counter, so runs are repeatable.
   * @param prefix - what the reference is for
   * @returns the reference
   */
  newRef(prefix: string): string {
    return `paper-${prefix}-${this.refSeq++}`;
  }

  /**
   * The `reference` of a `PLACE_ORDER` sent without one: a UUID, as the spec says the service
   * generates, drawn from this portfolio's seeded source ({@link referenceRandom}), so runs and
   * restarts stay repeatable.
   * @returns the reference
   */
  newPlaceOrderReference(): string {
    return seededUuid(this.referenceRandom);
  }

  /**
   * Finds an order by orderId or clientOrderId.
   * @param orderId - the venue id
   * @param clientOrderId - the caller reference
   * @returns the latest state of the order, or undefined
   */
  findOrder(orderId?: string, clientOrderId?: string): Order | undefined {
    const id = orderId ?? (clientOrderId === undefined ? undefined : this.orderIdByRef.get(clientOrderId));
    return id === undefined ? undefined : this.orders.get(id);
  }

  /**
   * Finds an algo order by algoOrderId, else by clientAlgoOrderId, as {@link findOrder} finds an
   * order: an unknown algoOrderId finds none, whatever clientAlgoOrderId comes with it.
   * @param algoOrderId - the venue id
   * @param clientAlgoOrderId - the caller reference
   * @returns the latest state of the algo order, or undefined
   */
  findAlgo(algoOrderId?: string, clientAlgoOrderId?: string): AlgoOrder | undefined {
    const id =
      algoOrderId ?? (clientAlgoOrderId === undefined ? undefined : this.algoIdByRef.get(clientAlgoOrderId));
    return id === undefined ? undefined : this.algos.get(id);
  }

  /**
   * Keeps a loan order the portfolio made, forgetting old ones as {@link RETAIN_HISTORY} says.
   * @param make - the loan order, given its id (`<portfolioId>-L-<n>`, n counting from 1)
   * @returns the loan order
   */
  addLoanOrder(make: (loanOrderId: string) => MarginLoanOrderWire): MarginLoanOrderWire {
    this.loanOrderCount += 1;
    const order = make(`${this.portfolioId}-L-${this.loanOrderCount}`);
    this.loanOrders.push(order);
    trimHistory(this.loanOrders, this.retain);
    return order;
  }

  private fold(event: UserEvent): void {
    switch (event.kind) {
      case 'order':
        this.foldOrder(event.order);
        break;
      case 'execution':
        this.executions.push(event.execution);
        this.lastExecutions.set(event.execution.orderId, event.execution);
        if (event.subPortfolioMarkup?.gt(0))
          this.markupCharged.set(event.execution.transactionId, event.subPortfolioMarkup);
        trimHistory(this.executions, this.retain, (old) => this.markupCharged.delete(old.transactionId));
        break;
      case 'position':
        this.foldPosition(event.position, event.ts);
        break;
      case 'algoOrder':
        this.foldAlgo(event.algoOrder);
        break;
      case 'loan':
        this.loans.set(`${event.loan.exchange}:${event.loan.coin}`, event.loan);
        break;
      case 'liquidationEvent':
        this.foldLiquidation(event.record);
        break;
      default:
        break;
    }
    this.captured?.push(event);
    for (const listener of this.listeners) listener(event);
  }

  /** Keeps an order's latest state; once twice {@link RETAIN_HISTORY} are final, forgets all but the newest of those. */
  private foldOrder(order: Order): void {
    const before = this.orders.get(order.orderId);
    this.orders.set(order.orderId, order);
    this.orderIdByRef.set(order.clientOrderId, order.orderId);
    if (
      !isFinalOrderState(order.orderState) ||
      (before !== undefined && isFinalOrderState(before.orderState))
    )
      return;
    this.finalOrderIds.push(order.orderId);
    trimHistory(this.finalOrderIds, this.retain, (orderId) => {
      const old = this.orders.get(orderId);
      if (old === undefined) return;
      this.orders.delete(orderId);
      if (this.orderIdByRef.get(old.clientOrderId) === orderId) this.orderIdByRef.delete(old.clientOrderId);
      this.lastExecutions.delete(orderId);
    });
  }

  /** Keeps an algo order's latest state; once twice {@link RETAIN_HISTORY} are final, forgets all but the newest of those. */
  private foldAlgo(algo: AlgoOrder): void {
    const before = this.algos.get(algo.algoOrderId);
    this.algos.set(algo.algoOrderId, algo);
    this.algoIdByRef.set(algo.clientAlgoOrderId, algo.algoOrderId);
    if (algo.state === 'NEW') {
      this.openAlgoIds.add(algo.algoOrderId);
      return;
    }
    this.openAlgoIds.delete(algo.algoOrderId);
    if (before !== undefined && before.state !== 'NEW') return;
    this.finalAlgoIds.push(algo.algoOrderId);
    trimHistory(this.finalAlgoIds, this.retain, (algoOrderId) => {
      const old = this.algos.get(algoOrderId);
      if (old === undefined) return;
      this.algos.delete(algoOrderId);
      if (this.algoIdByRef.get(old.clientAlgoOrderId) === algoOrderId)
        this.algoIdByRef.delete(old.clientAlgoOrderId);
    });
  }

  /** Adds a node to its liquidation event; once twice {@link RETAIN_HISTORY} events are kept, forgets all but the newest. */
  private foldLiquidation(record: LiquidationEventRecord): void {
    const nodes = this.liquidations.get(record.liquidationEventId);
    if (nodes !== undefined) {
      nodes.push(record);
      return;
    }
    this.liquidations.set(record.liquidationEventId, [record]);
    this.liquidationIds.push(record.liquidationEventId);
    trimHistory(this.liquidationIds, this.retain, (id) => this.liquidations.delete(id));
  }

  private foldPosition(position: Position, ts: number): void {
    const key = `${position.sym}|${position.positionSide}`;
    const before = this.positions.get(key);
    this.positions.set(key, position);
    if (before && !before.positionQty.isZero() && position.positionQty.isZero()) {
      this.positionHistory.push({
        sym: position.sym,
        positionMode: this.positionMode,
        positionHistorySide: position.positionSide,
        positionId: position.positionId,
        side: before.positionQty.isNegative() ? 'SELL' : 'BUY',
        openAvgPrice: decimalsAsText(derivedPrice(before.avgPrice)) as string,
        closedQty: decimalsAsText(before.positionQty.abs()) as string,
        createAt: before.createAt,
        updateAt: ts,
      });
      trimHistory(this.positionHistory, this.retain);
    }
  }
}

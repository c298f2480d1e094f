import type {
  AccountStatus,
  AlgoConditionType,
  AlgoOrderState,
  AlgoOrderType,
  BarEvent,
  BarInterval,
  Dec,
  Order,
  OrderSide,
  OrderState,
  PositionMode,
  PositionSide,
  TriggerPriceType,
  UserEvent,
} from '../../core/model/index.ts';
import { asNumber, ZERO } from '../../core/model/index.ts';
import type { LatencyModel } from './latency-model.ts';
import type { SymMarket } from './market-state.ts';
import { noFiguresYet, type PortfolioFigures } from './portfolio-figures.ts';
import type { RestingBook } from './resting-book.ts';
import type { ResolvedSimOptions } from './sim-options.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimPosition } from './sim-position.ts';
import { type SessionCloses, UsEquityHours } from './us-equity-hours.ts';

/** A User Data event before the venue stamps its times. */
export type UserEventPayload = UserEvent extends infer E
  ? E extends UserEvent
    ? Omit<E, 'ts' | 'recvTs'>
    : never
  : never;

/**
 * Work the venue did of its own accord that a bar's orders may have needed to come first: a
 * timer (funding, a DAY / GTD expiry, a TIME release, loan interest), a liquidation, a margin
 * call or a mark trigger.
 */
export interface VenueWork {
  /** The venue time it is stamped at, epoch ms (funding: its funding time). */
  readonly at: number;
  /** The sym it belongs to; undefined for account-wide work (interest, liquidation, margin call). */
  readonly sym: string | undefined;
  /** What ran, in words. */
  readonly what: string;
  /** Whether it may end orders (an expiry, a TIME release, a mark trigger, a liquidation's cancels). */
  readonly endsOrders: boolean;
  /** Per sym with orders or algo orders live just before it ran, the earliest of their receive times. */
  readonly live: ReadonlyMap<string, number>;
}

/** The venue work of the bar fill model not yet out of reach of a bar's span, and the tally. */
export interface VenueWorkLog {
  /** Roughly in time order; dropped once older than the longest bar interval. */
  readonly recent: VenueWork[];
  /** The tally so far; undefined while no bar was concerned. */
  found: EarlySpanWork | undefined;
}

/**
 * Bars whose orders were matched after the venue had, at a time inside the bar's span, already
 * done work that should have seen the bar's open fills (see `early-span-work.ts`).
 */
export interface EarlySpanWork {
  /** How many bars. */
  readonly bars: number;
  /** The first such bar's sym. */
  readonly sym: string;
  /** The first such bar's open time, epoch ms. */
  readonly barOpen: number;
  /** What ran first inside that bar's span, in words. */
  readonly what: string;
  /** When it ran, epoch ms. */
  readonly at: number;
}

/** Things that became final, oldest first from `head` (the ones before it are forgotten). */
export interface FinalQueue<T> {
  readonly items: T[];
  head: number;
}

/** The simulated venue's mutable record of one algo order (venue algo or tp/sl attachment). */
export interface SimAlgo {
  readonly algoOrderId: string;
  readonly clientAlgoOrderId: string;
  readonly sym: string;
  readonly side: OrderSide;
  readonly algoOrderType: AlgoOrderType;
  readonly conditionType: AlgoConditionType;
  readonly triggerType: TriggerPriceType;
  triggerPrice: Dec;
  triggerN: number;
  price: Dec;
  qty: Dec;
  readonly reduceOnly: boolean;
  readonly positionSide: PositionSide;
  state: AlgoOrderState;
  orderId?: string;
  /** The other leg of a take-profit / stop-loss pair, cancelled when this one fires. */
  sibling?: string;
  /** The parent order of a take-profit / stop-loss attachment (its orderId). */
  readonly attachedOrderId?: string;
  readonly createAt: number;
  /**
   * When the venue received the algo order as it stands: its placement, or its latest accepted
   * replace. On bars its trigger meets only bars that opened by then (see `bar-arrivals.ts`).
   */
  receivedAt: number;
  updateAt: number;
}

/**
 * Which bars of one sym the bar fill model matched: the finest interval so far, how far in time
 * the matched bars reach, when the last one was received, and the intervals matched and passed
 * over (for the run's warnings).
 */
export interface BarCoverage {
  /** Length of the finest interval matched so far, ms (Infinity before the first bar). */
  finestMs: number;
  /** The latest end (open time + interval) of a matched bar, epoch ms. */
  until: number;
  /** Receive time of the last matched bar: the venue's view of the sym before the next one. */
  lastRecvTs: number;
  readonly matched: Set<BarInterval>;
  /** Bars not matched because finer bars already covered their span, counted per interval. */
  readonly passedOver: Map<BarInterval, number>;
}

/** An outstanding margin loan. */
export interface SimLoan {
  readonly exchange: string;
  readonly coin: string;
  principal: Dec;
  /** Number mirror of the principal for the per-event margin check. */
  principalN: number;
  /** Interest charged so far (already deducted from the balance). */
  interest: Dec;
  readonly annualRate: Dec;
  /** Virtual time up to which interest has accrued (whole hours since the first borrow). */
  accruedUntil: number;
  updateAt: number;
}

/**
 * A non-trade cash flow, in the venue's statement types (per public venue docs: its statement
 * lists borrows, repays, interest and liquidation fees; funding is the perpetuals' own). BORROW
 * and REPAY move a loan's principal in and out of the balance: no income or expense, as the loan
 * is owed back.
 */
export interface CashFlow {
  readonly type: 'FUNDING_FEE' | 'DEDUCT_INTEREST' | 'LIQUIDATION_FEE' | 'BORROW' | 'REPAY';
  readonly coin: string;
  /** Signed: negative = paid by the portfolio (a repay is negative, a borrow positive). */
  readonly amount: Dec;
  readonly sym?: string;
  /** The exchange account of the loan a BORROW, REPAY or DEDUCT_INTEREST moved. */
  readonly exchange?: string;
  readonly ts: number;
}

/** Running totals the accounting identity is checked against. */
export interface SimLedger {
  realizedPnl: Dec;
  /** Trading fees paid minus rebates received. */
  tradingFees: Dec;
  liquidationFees: Dec;
  /** Funding received minus paid. */
  funding: Dec;
  interest: Dec;
}

/** Hooks the composition root wires, so the folder's files do not import each other in a circle. */
export interface SimHooks {
  /**
   * An order reached a final state with fills: its own tp / sl legs are placed, and the attached
   * legs its fills left without their position are cancelled.
   */
  attachTpSl(order: SimOrder): void;
  /** An order became working (accepted or triggered): take liquidity or rest it. */
  workOrder(order: SimOrder): void;
  /**
   * A position leg shrank, went flat or turned: its open reduce-only orders are capped at what is
   * left to reduce (`reduce-only-trim.ts`).
   */
  capReduceOnly(position: SimPosition): void;
}

/** Everything the simulated venue holds. One instance per run; mutated only on virtual time. */
export interface SimState {
  readonly opts: ResolvedSimOptions;
  readonly latency: LatencyModel;
  /**
   * The sub-portfolio fee markup charged on every fill now (a rate, precision 0.01 bps): starts as
   * `opts.subPortfolioMarkup`, changed at run time by `SimVenue.setFeeMarkup`.
   */
  feeMarkup: Dec;
  now: number;
  nextId: number;
  positionMode: PositionMode;
  /**
   * Orders by clientOrderId: every live order, and a final one until its final state is published
   * (it is then kept as that view, in `finalOrderViews`; see `final-order-retention.ts`).
   */
  readonly ordersByRef: Map<string, SimOrder>;
  /**
   * The latest `RETAIN_FINAL_ORDERS` final orders as the views their final states were published
   * with, by clientOrderId (older final orders are forgotten, see `retireFinalOrder`).
   */
  readonly finalOrderViews: Map<string, Order>;
  /** The clientOrderIds of final orders in the order they finished (see `retireFinalOrder`). */
  readonly finalOrders: FinalQueue<string>;
  /** The final state of each forgotten order, by clientOrderId (a string each, not the order). */
  readonly forgottenStates: Map<string, OrderState>;
  /** Orders not yet final, in arrival order: what margin, cancels and timers look at. */
  readonly liveOrders: Set<SimOrder>;
  /** Working limit orders per sym. */
  readonly books: Map<string, RestingBook>;
  /** Orders held by the venue until a condition (UT, DT, SL, OCO, TIME, HOLD). */
  readonly held: SimOrder[];
  /**
   * Working orders waiting for a price (bar model: the next bar's open), and US equity orders that
   * arrived outside their session, waiting for its first event.
   */
  readonly waitingMarket: SimOrder[];
  /** US equity orders taken off the book while their session is closed (`session-keeping.ts`). */
  readonly closedSession: SimOrder[];
  /** The US equity sessions, looked up once per minute. */
  readonly equityHours: UsEquityHours;
  /**
   * Per US equity sym, the next session closes after its previous market event: an event at or
   * after one tells that orders resting on the book sat through a close (`session-keeping.ts`).
   */
  readonly sessionCloses: Map<string, SessionCloses>;
  readonly markets: Map<string, SymMarket>;
  readonly positions: Map<string, SimPosition>;
  /**
   * Holdings of asset-settled instruments (crypto SPOT and MARGIN, see `spot-holdings.ts`), keyed
   * as positions are: the net quantity their trades bought, less the loan interest charged in the
   * base coin (`interest-holding.ts`), at its average price, reported on the Positions channel.
   * Their value is in the balances their trades moved, so they are kept apart from `positions`,
   * outside the margin model (no margin, maintenance or liqPrice; the liquidation trades them only
   * to repay loans).
   */
  readonly holdings: Map<string, SimPosition>;
  readonly balances: Map<string, Dec>;
  /** Number mirror of balances for the per-event margin check. */
  readonly balancesN: Map<string, number>;
  readonly algos: Map<string, SimAlgo>;
  readonly algosByRef: Map<string, SimAlgo>;
  /** Final algo orders in the order they finished (see `retireFinalAlgo`). */
  readonly finalAlgos: FinalQueue<SimAlgo>;
  /** The final state of each algo order forgotten by `retireFinalAlgo`, by clientAlgoOrderId. */
  readonly forgottenAlgoStates: Map<string, SimAlgo['state']>;
  readonly loans: Map<string, SimLoan>;
  /**
   * The reference of the close command each close order the venue named (`SIM-C-<n>`) was placed
   * for, by its clientOrderId: who owns the order is known here as it is made.
   */
  readonly closeCommandRefs: Map<string, string>;
  readonly cashFlows: CashFlow[];
  readonly ledger: SimLedger;
  liquidating: boolean;
  /**
   * Fills executed so far. The command loop and the timers compare it before and after their work,
   * so a fill off the market-event path has its margin checked at its own time (`watchMargin`).
   */
  fills: number;
  /**
   * Moved on by every change of a coin balance ({@link credit}) and of a margin position's qty or
   * cost (`executeFill`): the figures read off the balances and positions alone (the equity's
   * parts, the balances' value, whether other marks move liqPrices) are worked out once per move,
   * not on every bar or market event ({@link SimState.figures}).
   */
  portfolioVersion: number;
  /** The figures read off the balances and positions, each with the version it was worked out at. */
  readonly figures: PortfolioFigures;
  /** The account status last reported on the Accounts channel. */
  reportedStatus: AccountStatus;
  /** Earliest virtual time a timer (DAY/GTD expiry, TIME order, loan interest) may fire. */
  deadline: number;
  /** tp / sl attachments already placed, by parent orderId. */
  readonly attached: Set<string>;
  /**
   * The bar whose intra-bar path is being replayed (triggered orders fill at the path price), or
   * undefined between bars.
   */
  matchingBar: BarEvent | undefined;
  /**
   * The `venueTimeOf` of the market event being matched off bars, NaN otherwise: a resting order,
   * held order or algo order received after it does not meet it.
   */
  matchingAt: number;
  /** The bars matched per sym, on the bar fill model (see `bar-coverage.ts`). */
  readonly barCoverage: Map<string, BarCoverage>;
  /**
   * On the bar fill model, per sym, the open of the bar of that sym the venue has yet to match
   * (the close of its last matched bar, or the open of the bar being matched): the sym's timers
   * after it (an expiry, a TIME release, funding) wait for that bar (see `timers.ts`). A cell per
   * sym, moved in place: a number stored in a Map is a heap object made per store, two per bar.
   */
  readonly pendingBarOpen: Map<string, { open: number }>;
  /**
   * On the bar fill model, the venue's own work (timers, liquidations, mark triggers) that a bar
   * of a sym may still have to come before (see `early-span-work.ts`); undefined on other models.
   */
  readonly venueWork: VenueWorkLog | undefined;
  lastRecvTs: number;
  hooks: SimHooks;
  readonly sink: (event: UserEvent) => void;
}

/**
 * Creates an empty state at the options' start time with the starting balances.
 * @param opts - resolved options
 * @param latency - the latency model (User Data delays)
 * @param sink - where stamped events go
 * @returns the state
 */
export function createSimState(
  opts: ResolvedSimOptions,
  latency: LatencyModel,
  sink: (event: UserEvent) => void,
): SimState {
  return {
    opts,
    latency,
    feeMarkup: opts.subPortfolioMarkup,
    now: opts.startTime,
    nextId: 1,
    positionMode: opts.positionMode,
    ordersByRef: new Map(),
    finalOrderViews: new Map(),
    finalOrders: { items: [], head: 0 },
    forgottenStates: new Map(),
    liveOrders: new Set(),
    books: new Map(),
    held: [],
    waitingMarket: [],
    closedSession: [],
    equityHours: new UsEquityHours(),
    sessionCloses: new Map(),
    markets: new Map(),
    positions: new Map(),
    holdings: new Map(),
    balances: new Map(Object.entries(opts.startingBalances)),
    balancesN: new Map(
      Object.entries(opts.startingBalances).map(([coin, amount]) => [coin, asNumber(amount)]),
    ),
    algos: new Map(),
    algosByRef: new Map(),
    finalAlgos: { items: [], head: 0 },
    forgottenAlgoStates: new Map(),
    loans: new Map(),
    closeCommandRefs: new Map(),
    cashFlows: [],
    ledger: { realizedPnl: ZERO, tradingFees: ZERO, liquidationFees: ZERO, funding: ZERO, interest: ZERO },
    liquidating: false,
    fills: 0,
    portfolioVersion: 0,
    figures: noFiguresYet(),
    reportedStatus: 'NORMAL',
    deadline: Number.POSITIVE_INFINITY,
    attached: new Set(),
    matchingBar: undefined,
    matchingAt: Number.NaN,
    barCoverage: new Map(),
    pendingBarOpen: new Map(),
    venueWork: opts.fillModel.name === 'bar' ? { recent: [], found: undefined } : undefined,
    lastRecvTs: Number.NEGATIVE_INFINITY,
    hooks: { attachTpSl: () => undefined, workOrder: () => undefined, capReduceOnly: () => undefined },
    sink,
  };
}

/**
 * Stamps and sends a User Data event: `ts` = venue time, `recvTs` = ts + User Data latency, never
 * earlier than the previous event's (one connection delivers in order; Keel's choice).
 * The payload becomes the event: every caller passes a fresh object literal, so the times are
 * stamped onto it (same keys in the same order as a copy would have) instead of copying it.
 * @param state - the venue
 * @param payload - the event without times, a fresh object no one else holds
 */
export function emit(state: SimState, payload: UserEventPayload): void {
  const recvTs = Math.max(state.now + state.latency.userData(), state.lastRecvTs);
  state.lastRecvTs = recvTs;
  const event = payload as UserEventPayload & { ts: number; recvTs: number };
  event.ts = state.now;
  event.recvTs = recvTs;
  state.sink(event as UserEvent);
}

/**
 * A fresh venue id with a prefix, deterministic per run.
 * @param state - the venue
 * @param prefix - e.g. `O` for orders
 * @returns the id, e.g. `SIM-O-12`
 */
export function nextId(state: SimState, prefix: string): string {
  return `SIM-${prefix}-${state.nextId++}`;
}

/**
 * Adds a signed amount to a coin balance.
 * @param state - the venue
 * @param coin - the coin
 * @param amount - signed amount
 */
export function credit(state: SimState, coin: string, amount: Dec): void {
  const balance = (state.balances.get(coin) ?? ZERO).plus(amount);
  state.balances.set(coin, balance);
  state.balancesN.set(coin, asNumber(balance));
  state.portfolioVersion++;
}

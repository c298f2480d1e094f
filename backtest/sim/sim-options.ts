import { nextUsEquitySessionClose, type RandomSource } from '../../core/kernel/index.ts';
import type { Dec, InstrumentSpec, PositionMode, PositionSide } from '../../core/model/index.ts';
import { D } from '../../core/model/index.ts';
import { checkMarkup, checkSubPortfolioMarkup } from './fee-model.ts';
import type { FillModelName, FillModelOptions, ResolvedFillModel } from './fill-model.ts';
import { resolveFillModel } from './fill-model.ts';
import type { LatencyOptions, LatencySpec } from './latency-model.ts';
import { simLeverageOf } from './sim-leverage.ts';

/** Borrowing terms of one asset on one exchange. */
export interface LoanAssetTerms {
  /** Annual interest rate, e.g. 0.08 for 8 %, accrued hourly on virtual time. */
  readonly annualRate: Dec;
  /** Per-user maximum borrow quota (shared across portfolios, spec "Limits"). */
  readonly userQuota: Dec;
  /** What the exchange's loan pool can still lend. */
  readonly pool: Dec;
  /** Smallest amount one borrow may take; less is refused with 406015. Default {@link DEFAULT_MIN_BORROW}. */
  readonly minBorrow?: Dec;
}

/**
 * The smallest borrow of an asset whose terms name no minimum (Keel's assumption: the venue
 * publishes none): one unit of the 8th decimal place, the finest amount a loan carries.
 */
export const DEFAULT_MIN_BORROW: Dec = D('0.00000001');

/**
 * Decimal places a borrow or repay amount may carry (Keel's assumption: the venue publishes none;
 * 8, as its hourly interest is rounded to); a finer amount is refused with 406015.
 */
export const LOAN_AMOUNT_DECIMALS = 8;

/** A loan's principal, as the per-user quota and the loan pool count it. */
export interface LoanPrincipal {
  readonly exchange: string;
  readonly coin: string;
  readonly principal: Dec;
}

/** Margin-loan settings (Keel's choice of model: the spec shows only the endpoints). */
export interface LoanOptions {
  /** Terms per `EXCHANGE:COIN`, e.g. `BINANCE:USDT`. */
  readonly assets: Readonly<Record<string, LoanAssetTerms>>;
  /** Largest loan-to-value (loan value / gross asset value) a borrow may leave. Default 0.5. */
  readonly maxBorrowLtv?: Dec;
  /** Maintenance margin rate charged on loan value. Default 0.05. */
  readonly maintenanceMarginRate?: Dec;
  /** LTV at or above which new borrowing is refused with 406020. Default 0.45 (Keel's choice). */
  readonly ltvWarningLevel?: Dec;
  /**
   * How the user gives this venue loan terms for an asset it has none for, told in the 406014
   * refusal (e.g. the config key of a backtest, the flag of `keel venue`). Default: a sentence
   * naming `loans.assets` of the venue's options.
   * @param key - the `EXCHANGE:COIN` refused
   */
  readonly missingTermsAdvice?: (key: string) => string;
}

/**
 * The advice of a 406014 refusal when the venue's options name no other: the sim's own option.
 * @param key - the `EXCHANGE:COIN` refused
 * @returns the sentence
 */
function loanOptionsAdvice(key: string): string {
  return `give them in the venue's loan options (loans.assets), e.g. "${key}": { annualRate: 0.08, userQuota: 50000 }`;
}

/** Settings of a simulated venue. Every Keel's-choice default is named in the TSDoc. */
export interface SimVenueOptions {
  readonly instruments: readonly InstrumentSpec[];
  /** Fill model by name or full settings. Default `queue` (realism first). */
  readonly fillModel?: FillModelOptions | FillModelName;
  /** Latency legs. Default: order entry 10ms + U[0,5)ms, market and user data 5ms. */
  readonly latency?: LatencyOptions;
  /**
   * The order-entry delay commands already took before `submit` (a paper venue holds each command
   * back for its own order-entry delay and submits it at its arrival, with `latency.orderEntry`
   * zero). The bar cutoff allows it as it allows `latency.orderEntry`, so an order sent on a bar's
   * close meets the next bar's open as in a backtest with that latency. Default: none.
   */
  readonly upstreamOrderEntry?: LatencySpec;
  /** Starting balances per coin, e.g. `{ USDT: D('10000') }`. */
  readonly startingBalances: Readonly<Record<string, Dec>>;
  /** Default NET. */
  readonly positionMode?: PositionMode;
  /** Leverage per sym; default the instrument's defaultLeverage (1 for SPOT and equities). */
  readonly leverage?: Readonly<Record<string, Dec>>;
  /** Maintenance margin rate per sym, or one for all. Default {@link DEFAULT_MAINTENANCE_MARGIN_RATE}, 0.005 (Keel's choice). */
  readonly maintenanceMarginRate?: Dec | Readonly<Record<string, Dec>>;
  /**
   * The simulated portfolio's sub-portfolio fee markup (what the broker's sub-portfolio fee-rate
   * endpoint sets), added to every rate on top of each instrument's own `fees.markup`; both are
   * charged, so give a markup in one place only. Not negative, precision 0.01 bps. Default 0.
   */
  readonly subPortfolioMarkup?: Dec;
  readonly loans?: LoanOptions;
  /**
   * Every loan outstanding at the venue, this portfolio's included, when the venue lends to more
   * portfolios than this one (the paper venue's main and sub-portfolios): a borrow's per-user
   * quota and loan pool are counted against them, as the venue counts them (the quota is shared
   * across portfolios, spec). Default: this portfolio's own loans (a backtest has one portfolio).
   */
  readonly venueLoans?: () => Iterable<LoanPrincipal>;
  /** Seeded randomness for latency jitter. */
  readonly random: RandomSource;
  /** Default `SIM`. */
  readonly portfolioId?: string;
  /**
   * Largest number of open reduce-only orders across the syms of a close-position request before
   * it is rejected with 401129. The spec says a limit exists but not its value: Keel's choice 50.
   */
  readonly maxReduceOnlyOrdersOnClose?: number;
  /** Risk ratio (maintenance margin / equity) at which the account reports MARGIN_CALL. Default 0.8. */
  readonly marginCallRatio?: Dec;
  /**
   * How far (relative) a position's liqPrice may drift with other syms' marks before the venue
   * republishes it (`liq-price-watch.ts`); fills, funding, interest and loans republish any
   * change. Default 0.001 = 0.1 % (Keel's choice: exact after every money movement, within 0.1 %
   * between them, and no Decimal work per market event).
   */
  readonly liqPriceTolerance?: number;
  /**
   * ADL score thresholds between ranks 1..5 (score = PnL% x effective leverage). Default
   * [0, 0.5, 1, 2] (Keel's choice).
   */
  readonly adlScoreThresholds?: readonly [number, number, number, number];
  /** Coins valued at 1 (the account currency). Default {@link DEFAULT_VALUATION_COINS}. */
  readonly valuationCoins?: readonly string[];
  /** Virtual time before the first event. Default 0. */
  readonly startTime?: number;
  /**
   * When a DAY order expires, given its creation time and sym. Default: a US equity's at the
   * 16:00 New York close of its trading day (the next trading day's when placed after the close;
   * weekends skipped, no holiday calendar), any other's at the next 00:00 UTC.
   */
  readonly dayEnd?: (createdAt: number, sym: string) => number;
  /**
   * How an order refused on arrival (bad parameters, unknown sym, margin, GTX that would take...)
   * is reported. `rejectedOrder` (default, backtests): a REJECTED order event, so the kernel tells
   * the strategy and orders.csv lists it. `commandRejected` (the paper venue): a
   * CommandRejectedEvent only, because live such a refusal is the reply's error envelope and no
   * order exists. Either way the refused order is not kept: its clientOrderId stays free.
   */
  readonly placementRefusals?: PlacementRefusals;
  /**
   * Told of each quantity loan interest took out of a spot holding without a trade (see
   * `interest-holding.ts`), when it happens: a trade list built from fills must take it out of
   * its open lots too. Default: nobody is told.
   */
  readonly onHoldingSpent?: (spent: HoldingSpent) => void;
}

/** A quantity loan interest took out of a spot holding, as a sale without proceeds. */
export interface HoldingSpent {
  readonly sym: string;
  readonly positionSide: PositionSide;
  /** The quantity taken (> 0), in the holding's units. */
  readonly qty: Dec;
  /**
   * The price at which what the holding had no long for was booked as short (the short's
   * average price, or the mark from flat); unused while it spends a long.
   */
  readonly price: Dec;
  /** Virtual time, epoch ms. */
  readonly ts: number;
}

/** How the sim reports an order refused on arrival (see {@link SimVenueOptions.placementRefusals}). */
export type PlacementRefusals = 'rejectedOrder' | 'commandRejected';

/** Options with every default filled in. */
export interface ResolvedSimOptions {
  readonly instruments: ReadonlyMap<string, InstrumentSpec>;
  readonly fillModel: ResolvedFillModel;
  readonly latency: LatencyOptions;
  readonly upstreamOrderEntry: LatencySpec;
  readonly startingBalances: Readonly<Record<string, Dec>>;
  readonly positionMode: PositionMode;
  readonly leverageOf: (sym: string) => Dec;
  readonly mmrOf: (sym: string) => Dec;
  readonly subPortfolioMarkup: Dec;
  readonly loans: Required<LoanOptions>;
  /** The venue's loans; undefined = this portfolio's own. */
  readonly venueLoans: (() => Iterable<LoanPrincipal>) | undefined;
  readonly random: RandomSource;
  readonly portfolioId: string;
  readonly maxReduceOnlyOrdersOnClose: number;
  readonly marginCallRatio: Dec;
  readonly marginCallRatioN: number;
  readonly liqPriceTolerance: number;
  readonly adlScoreThresholds: readonly [number, number, number, number];
  readonly valuationCoins: ReadonlySet<string>;
  readonly startTime: number;
  readonly dayEnd: (createdAt: number, sym: string) => number;
  readonly placementRefusals: PlacementRefusals;
  readonly onHoldingSpent: (spent: HoldingSpent) => void;
}

const DAY_MS = 86_400_000;
const NO_DELAY: LatencySpec = { fixedMs: 0, jitterMs: 0 };

/** Default latency (Keel's choice): order entry 10ms + U[0,5)ms, market and user data 5ms. */
export const DEFAULT_LATENCY: LatencyOptions = {
  orderEntry: { fixedMs: 10, jitterMs: 5 },
  marketData: { fixedMs: 5, jitterMs: 0 },
};

/**
 * The loan settings with their defaults filled in (Keel's choices: `maxBorrowLtv` 0.5,
 * `maintenanceMarginRate` 0.05, `ltvWarningLevel` 0.45; no borrowable asset; the 406014 refusal
 * names the sim's `loans.assets`).
 * @param loans - the settings given, if any
 * @returns every setting
 */
export function resolveLoanOptions(loans: LoanOptions | undefined): Required<LoanOptions> {
  return {
    assets: loans?.assets ?? {},
    maxBorrowLtv: loans?.maxBorrowLtv ?? D('0.5'),
    maintenanceMarginRate: loans?.maintenanceMarginRate ?? D('0.05'),
    ltvWarningLevel: loans?.ltvWarningLevel ?? D('0.45'),
    missingTermsAdvice: loans?.missingTermsAdvice ?? loanOptionsAdvice,
  };
}

/**
 * The coins the simulated venue values at 1 when the options name none (Keel's choice): an
 * account's USDT, USDC and USD all count one for one in its equity, and any other coin at the
 * mark of a `{coin}/{valuation coin}` instrument (`coin-valuation.ts`).
 */
export const DEFAULT_VALUATION_COINS: readonly string[] = ['USDT', 'USDC', 'USD'];

/** The maintenance margin rate of a sym's positions when the options give none (Keel's choice). */
export const DEFAULT_MAINTENANCE_MARGIN_RATE: Dec = D('0.005');

/**
 * The maintenance margin rate the simulated venue charges on a sym's positions.
 * @param rate - the options' `maintenanceMarginRate`: one for all, per sym, or none
 * @param sym - the symbol
 * @returns its rate, {@link DEFAULT_MAINTENANCE_MARGIN_RATE} when the options give none for it
 */
export function maintenanceMarginRateOf(rate: SimVenueOptions['maintenanceMarginRate'], sym: string): Dec {
  if (rate === undefined) return DEFAULT_MAINTENANCE_MARGIN_RATE;
  if (D.isDecimal(rate)) return rate as Dec;
  return (rate as Readonly<Record<string, Dec>>)[sym] ?? DEFAULT_MAINTENANCE_MARGIN_RATE;
}

/**
 * Fills in defaults and checks the options.
 * @param options - the caller's options
 * @returns resolved options
 * @throws RangeError naming the bad field (unknown fill model, markup finer than 0.01 bps, a
 *   negative sub-portfolio markup, bad leverage, a negative liqPriceTolerance)
 */
export function resolveSimOptions(options: SimVenueOptions): ResolvedSimOptions {
  const instruments = new Map(options.instruments.map((spec) => [spec.sym, spec]));
  for (const spec of options.instruments) checkMarkup(spec.fees.markup, `sim instrument ${spec.sym} fees`);
  const subPortfolioMarkup = options.subPortfolioMarkup ?? D(0);
  checkSubPortfolioMarkup(subPortfolioMarkup, 'sim subPortfolioMarkup');
  const leverageOf = (sym: string): Dec => {
    const given = options.leverage?.[sym];
    if (given) return given;
    const spec = instruments.get(sym);
    if (!spec) return D(1);
    return simLeverageOf(spec);
  };
  for (const [sym, leverage] of Object.entries(options.leverage ?? {})) {
    if (!leverage.gt(0)) throw new RangeError(`sim leverage.${sym} must be positive`);
  }
  if (!((options.liqPriceTolerance ?? 0) >= 0))
    throw new RangeError(`sim liqPriceTolerance must be 0 or more, not ${options.liqPriceTolerance}`);
  const mmr = options.maintenanceMarginRate;
  const mmrOf = (sym: string): Dec => maintenanceMarginRateOf(mmr, sym);
  return {
    instruments,
    fillModel: resolveFillModel(options.fillModel ?? 'queue'),
    latency: options.latency ?? DEFAULT_LATENCY,
    upstreamOrderEntry: options.upstreamOrderEntry ?? NO_DELAY,
    startingBalances: options.startingBalances,
    positionMode: options.positionMode ?? 'NET',
    leverageOf,
    mmrOf,
    subPortfolioMarkup,
    loans: resolveLoanOptions(options.loans),
    venueLoans: options.venueLoans,
    random: options.random,
    portfolioId: options.portfolioId ?? 'SIM',
    maxReduceOnlyOrdersOnClose: options.maxReduceOnlyOrdersOnClose ?? 50,
    marginCallRatio: options.marginCallRatio ?? D('0.8'),
    marginCallRatioN: (options.marginCallRatio ?? D('0.8')).toNumber(),
    liqPriceTolerance: options.liqPriceTolerance ?? 0.001,
    adlScoreThresholds: options.adlScoreThresholds ?? [0, 0.5, 1, 2],
    valuationCoins: new Set(options.valuationCoins ?? DEFAULT_VALUATION_COINS),
    startTime: options.startTime ?? 0,
    dayEnd:
      options.dayEnd ??
      ((createdAt, sym) =>
        instruments.get(sym)?.id.kind === 'equity'
          ? nextUsEquitySessionClose(createdAt)
          : (Math.floor(createdAt / DAY_MS) + 1) * DAY_MS),
    placementRefusals: options.placementRefusals ?? 'rejectedOrder',
    onHoldingSpent: options.onHoldingSpent ?? (() => {}),
  };
}

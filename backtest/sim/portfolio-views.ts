import type { Account, AccountStatus, Asset, Dec, Position } from '../../core/model/index.ts';
import { isAboveZero, ZERO } from '../../core/model/index.ts';
import { coinValue } from './coin-valuation.ts';
import { notBelowZero, smallerOf } from './decimal-compare.ts';
import { addTo, plusAmount } from './decimal-sums.ts';
import { type DeferredMargin, initialMarginLater } from './initial-margin.ts';
import {
  equityOf,
  type LiqPriceInputs,
  liqPriceFrom,
  liqPriceInputsOf,
  liqPriceTermsFrom,
  maintenanceMargin,
  marginOfValuation,
  positionMaintenanceOf,
  UNBOUNDED_RISK_RATIO,
  unrealizedPnl,
  valuationOf,
} from './margin.ts';
import { roughNumberOf } from './rough-number.ts';
import type { PositionValuation, SimPosition } from './sim-position.ts';
import type { SimState } from './sim-state.ts';
import { frozenBySpotOrders } from './spot-balance-check.ts';
import { isAssetSettledSym } from './spot-holdings.ts';

/*
 * The Positions, Accounts and Assets channel views of the portfolio, valued by the margin model
 * (`margin.ts`, `initial-margin.ts`).
 */

/**
 * The Positions-channel view of a position. A spot holding (`spot-holdings.ts`) carries no margin,
 * maintenance margin or liqPrice: its value is in the balances.
 * @param state - the venue
 * @param position - the position
 * @param equity - the portfolio equity now
 * @param adlRank - the ADL rank now (`adlRankOf`): the caller computes it when the view is made,
 *   as the rank moves with every mark and the position's last published rank goes stale
 * @returns the Position
 */
export function positionView(state: SimState, position: SimPosition, equity: Dec, adlRank: number): Position {
  const valuation = valuationOf(state, position);
  if (!isAssetSettledSym(state, position.sym))
    return new MarginedPositionView(
      state,
      position,
      valuation,
      liqPriceInputsOf(state, position, equity),
      adlRank,
    );
  return {
    positionId: `${position.sym}|${position.positionSide}`,
    portfolioId: state.opts.portfolioId,
    sym: position.sym,
    positionSide: position.positionSide,
    positionQty: position.qty,
    avgPrice: position.avgPrice,
    markPrice: valuation.mark,
    positionValue: valuation.notional,
    positionMargin: ZERO,
    positionMM: ZERO,
    unrealizedPNL: valuation.unrealizedPnl,
    leverage: position.leverage,
    liqPrice: ZERO,
    adlRank,
    createAt: position.createAt,
    updateAt: position.updateAt,
  };
}

/**
 * The view of a margin position. Its liqPrice (a dozen Decimal operations and a 40-digit
 * division) is worked out from the inputs taken when the view is made, when first read, once, and
 * its margin (notional / leverage) from its valuation: a backtest publishes the position with
 * every fill and seldom reads either. The liqPrice is an own enumerable property, in its place among
 * the fields (spread copies and JSON keep it), defined with one shared getter so every view has
 * the same shape (a getter per view, in an object literal, made each view a dictionary).
 */
class MarginedPositionView implements Position {
  declare readonly positionId: string;
  declare readonly portfolioId: string;
  declare readonly sym: string;
  declare readonly positionSide: Position['positionSide'];
  declare readonly positionQty: Dec;
  declare readonly avgPrice: Dec;
  declare readonly markPrice: Dec;
  declare readonly positionValue: Dec;
  declare readonly positionMargin: Dec;
  declare readonly positionMM: Dec;
  declare readonly unrealizedPNL: Dec;
  declare readonly leverage: Dec;
  declare readonly liqPrice: Dec;
  declare readonly adlRank: number;
  declare readonly createAt: number;
  declare readonly updateAt: number;
  readonly #inputs: LiqPriceInputs | undefined;
  readonly #valuation: PositionValuation;
  #liqPrice: Dec | undefined;

  static readonly #POSITION_MARGIN: PropertyDescriptor = {
    get(this: MarginedPositionView): Dec {
      return marginOfValuation(this.#valuation, this.leverage);
    },
    enumerable: true,
  };

  static readonly #LIQ_PRICE: PropertyDescriptor = {
    get(this: MarginedPositionView): Dec {
      this.#liqPrice ??= liqPriceFrom(liqPriceTermsFrom(this.#inputs));
      return this.#liqPrice;
    },
    enumerable: true,
  };

  constructor(
    state: SimState,
    position: SimPosition,
    valuation: PositionValuation,
    inputs: LiqPriceInputs | undefined,
    adlRank: number,
  ) {
    this.#inputs = inputs;
    this.#valuation = valuation;
    this.positionId = `${position.sym}|${position.positionSide}`;
    this.portfolioId = state.opts.portfolioId;
    this.sym = position.sym;
    this.positionSide = position.positionSide;
    this.positionQty = position.qty;
    this.avgPrice = position.avgPrice;
    this.markPrice = valuation.mark;
    this.positionValue = valuation.notional;
    Object.defineProperty(this, 'positionMargin', MarginedPositionView.#POSITION_MARGIN);
    this.positionMM = positionMaintenanceOf(state, position);
    this.unrealizedPNL = valuation.unrealizedPnl;
    this.leverage = position.leverage;
    Object.defineProperty(this, 'liqPrice', MarginedPositionView.#LIQ_PRICE);
    this.adlRank = adlRank;
    this.createAt = position.createAt;
    this.updateAt = position.updateAt;
  }
}

/**
 * The Accounts-channel view of the portfolio. The risk ratio (maintenance margin / equity, a
 * 40-digit division) and the available margin (from the initial margin of positions and open
 * orders) are worked out when first read, once: a backtest publishes an account with every fill
 * and seldom reads them. The status needs the ratio only when the ratio estimated on numbers is
 * not clearly below the margin-call ratio.
 * @param state - the venue
 * @param equity - the portfolio equity when the caller has it already (same state)
 * @param im - the initial margin when the caller has it already (same state)
 * @returns the Account
 */
export function accountView(
  state: SimState,
  equity: Dec = equityOf(state),
  im: DeferredMargin = initialMarginLater(state),
): Account {
  const mm = maintenanceMargin(state);
  const callRatio = state.opts.marginCallRatio;
  let riskRatio: Dec | undefined;
  let accountStatus: AccountStatus = 'NORMAL';
  if (state.liquidating) accountStatus = 'LIQUIDATION';
  else if (!clearlyBelow(mm, equity, state.opts.marginCallRatioN)) {
    riskRatio = riskRatioOf(mm, equity);
    if (riskRatio.gte(callRatio)) accountStatus = 'MARGIN_CALL';
  }
  return new PortfolioAccount(
    state.opts.portfolioId,
    equity,
    im,
    mm,
    riskRatio,
    accountStatus,
    state.positionMode,
  );
}

/**
 * An account view whose risk ratio is divided and available margin subtracted when first read
 * ({@link accountView}): own enumerable properties in their places, each defined with one shared
 * getter (see {@link MarginedPositionView}).
 */
class PortfolioAccount implements Account {
  declare readonly portfolioId: string;
  declare readonly equity: Dec;
  declare readonly availableMargin: Dec;
  declare readonly maintainMargin: Dec;
  declare readonly riskRatio: Dec;
  declare readonly accountStatus: AccountStatus;
  declare readonly positionMode: Account['positionMode'];
  #riskRatio: Dec | undefined;
  readonly #im: DeferredMargin;
  #availableMargin: Dec | undefined;

  static readonly #AVAILABLE_MARGIN: PropertyDescriptor = {
    get(this: PortfolioAccount): Dec {
      this.#availableMargin ??= this.equity.minus(this.#im.value);
      return this.#availableMargin;
    },
    enumerable: true,
  };

  static readonly #RISK_RATIO: PropertyDescriptor = {
    get(this: PortfolioAccount): Dec {
      this.#riskRatio ??= riskRatioOf(this.maintainMargin, this.equity);
      return this.#riskRatio;
    },
    enumerable: true,
  };

  constructor(
    portfolioId: string,
    equity: Dec,
    im: DeferredMargin,
    maintainMargin: Dec,
    riskRatio: Dec | undefined,
    accountStatus: AccountStatus,
    positionMode: Account['positionMode'],
  ) {
    this.#riskRatio = riskRatio;
    this.#im = im;
    this.portfolioId = portfolioId;
    this.equity = equity;
    Object.defineProperty(this, 'availableMargin', PortfolioAccount.#AVAILABLE_MARGIN);
    this.maintainMargin = maintainMargin;
    Object.defineProperty(this, 'riskRatio', PortfolioAccount.#RISK_RATIO);
    this.accountStatus = accountStatus;
    this.positionMode = positionMode;
  }
}

/** Maintenance margin / equity; zero without margin, {@link UNBOUNDED_RISK_RATIO} without equity. */
function riskRatioOf(mm: Dec, equity: Dec): Dec {
  return isAboveZero(equity) ? mm.div(equity) : mm.isZero() ? ZERO : UNBOUNDED_RISK_RATIO;
}

/**
 * Whether mm / equity is below the ratio by far more than float rounding (a millionth of it), so
 * that the exact Decimal quotient is below it too; false whenever in doubt (no equity, NaN). Both
 * are read as rough numbers ({@link roughNumberOf}): a hundred-trillionth off changes no answer
 * that matters, as the status is NORMAL on both sides of the margin.
 */
function clearlyBelow(mm: Dec, equity: Dec, ratio: number): boolean {
  const equityN = roughNumberOf(equity);
  return equityN > 0 && roughNumberOf(mm) / equityN < ratio * (1 - 1e-6);
}

/**
 * The Assets-channel view of one coin; loan fields only when a loan of it is outstanding. Frozen:
 * for a valuation coin the initial margin it covers, plus what open spot orders freeze of the coin
 * (`frozenBySpotOrders`), never more than a positive balance; it and the available balance are
 * worked out when first read (a backtest publishes the asset with every fill and seldom reads
 * them). The unrealized PnL is the margin positions' (a spot holding's value is in the balances
 * already).
 * @param state - the venue
 * @param coin - the coin
 * @param im - the initial margin when the caller has it already (same state)
 * @returns the Asset
 */
export function assetView(state: SimState, coin: string, im?: DeferredMargin): Asset {
  const balance = state.balances.get(coin) ?? ZERO;
  let upnl = ZERO;
  for (const position of state.positions.values()) {
    if (!position.qty.isZero() && state.opts.instruments.get(position.sym)?.settleAsset === coin) {
      upnl = addTo(upnl, unrealizedPnl(state, position));
    }
  }
  let loan = ZERO;
  for (const record of state.loans.values()) if (record.coin === coin) loan = addTo(loan, record.principal);
  const margin = state.opts.valuationCoins.has(coin) ? (im ?? initialMarginLater(state)) : undefined;
  const asset = new CoinAsset(
    coin,
    balance,
    frozenBySpotOrders(state, coin),
    margin,
    plusAmount(balance, upnl),
    loan,
    upnl,
  );
  if (!isAboveZero(loan)) return asset;
  const value = coinValue(state, coin);
  const netEquity = asset.equity.minus(loan);
  return {
    ...asset,
    loan,
    loanValue: loan.mul(value),
    netEquity,
    netEquityValue: netEquity.mul(value),
    netMarginValue: netEquity.mul(value),
  };
}

/**
 * An asset view whose frozen and available balances are worked out when first read
 * ({@link assetView}): own enumerable properties in their places, each defined with one shared
 * getter (see {@link MarginedPositionView}).
 */
class CoinAsset implements Asset {
  declare readonly coin: string;
  declare readonly balance: Dec;
  declare readonly available: Dec;
  declare readonly frozen: Dec;
  declare readonly equity: Dec;
  declare readonly borrow: Dec;
  declare readonly upnl: Dec;
  readonly #spotFrozen: Dec;
  readonly #margin: DeferredMargin | undefined;
  #frozen: Dec | undefined;
  #available: Dec | undefined;

  static readonly #AVAILABLE: PropertyDescriptor = {
    get(this: CoinAsset): Dec {
      this.#available ??= this.balance.minus(this.frozen);
      return this.#available;
    },
    enumerable: true,
  };

  static readonly #FROZEN: PropertyDescriptor = {
    get(this: CoinAsset): Dec {
      if (this.#frozen === undefined) {
        const margin = this.#margin === undefined ? ZERO : notBelowZero(this.#margin.value);
        // Added in the other order, so that the spot orders' ZERO (no spot trading) costs no addition.
        this.#frozen = smallerOf(addTo(this.#spotFrozen, margin), notBelowZero(this.balance));
      }
      return this.#frozen;
    },
    enumerable: true,
  };

  /**
   * @param coin - the coin
   * @param balance - its balance
   * @param spotFrozen - what open spot orders freeze of it
   * @param margin - the initial margin it covers, for a valuation coin
   * @param equity - balance plus the unrealized PnL
   * @param borrow - the loan principal outstanding
   * @param upnl - the unrealized PnL of the positions settled in it
   */
  constructor(
    coin: string,
    balance: Dec,
    spotFrozen: Dec,
    margin: DeferredMargin | undefined,
    equity: Dec,
    borrow: Dec,
    upnl: Dec,
  ) {
    this.#spotFrozen = spotFrozen;
    this.#margin = margin;
    this.coin = coin;
    this.balance = balance;
    Object.defineProperty(this, 'available', CoinAsset.#AVAILABLE);
    Object.defineProperty(this, 'frozen', CoinAsset.#FROZEN);
    this.equity = equity;
    this.borrow = borrow;
    this.upnl = upnl;
  }
}

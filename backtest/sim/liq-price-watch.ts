import type { Dec } from '../../core/model/index.ts';
import { asNumber } from '../../core/model/index.ts';
import { coinValuerOf } from './coin-valuation.ts';
import { equityOf, liqPriceOf } from './margin.ts';
import { markPriceOf } from './market-state.ts';
import { publishPosition } from './publish.ts';
import type { SimPosition } from './sim-position.ts';
import type { SimState } from './sim-state.ts';

/**
 * When the venue republishes a position because its liqPrice moved (Keel's choice; the spec
 * shows no push rule). A position's liqPrice is the mark of its sym at which equity meets
 * maintenance margin, so it moves whenever equity or maintenance margin moves other than through
 * that sym's own mark (which cancels out of it):
 * - after money changes hands or margin changes (a fill, funding, interest, a borrow or a repay),
 *   every open position whose exact liqPrice differs from the one last published is republished
 *   ({@link republishMovedLiqPrices}): the other leg of a BOTH-mode sym, positions on other syms;
 * - after a market event, when positions are open on more than one sym (or a loan or a coin held
 *   is valued at a mark), a number estimate decides per sym ({@link watchLiqPrices}): its positions are
 *   republished, exactly, when the estimate left the last published value by more than the
 *   tolerance (`liqPriceTolerance`, default 0.1 %), so Decimal work is done only then.
 */

/**
 * Republishes every open position, except the one just published, whose liqPrice is no longer
 * the one it last published.
 * @param state - the venue
 * @param equity - the portfolio equity now
 * @param except - a position the caller has just published
 */
export function republishMovedLiqPrices(state: SimState, equity: Dec, except?: SimPosition): void {
  for (const position of state.positions.values()) {
    const published = position.published;
    if (position === except || position.qty.isZero() || published === undefined) continue;
    if (!liqPriceOf(state, position, equity).eq(published.liqPrice)) publishPosition(state, position, equity);
  }
}

/**
 * Whether another sym's mark or a coin's mark can move a position's liqPrice: positions on two
 * syms, a loan of a coin valued at a mark, or such a coin held (spot holdings, `spot-holdings.ts`).
 */
function marksMoveLiqPrices(state: SimState): boolean {
  for (const loan of state.loans.values()) if (!state.opts.valuationCoins.has(loan.coin)) return true;
  return heldAcrossMarks(state);
}

/**
 * Whether a coin not of valuation is held, or positions are open on two syms: read off the
 * balances and positions alone, so worked out once per move of the portfolio
 * (`portfolioVersion`), not on every market event.
 */
function heldAcrossMarks(state: SimState): boolean {
  const figures = state.figures;
  if (figures.heldAcrossMarksAt !== state.portfolioVersion) {
    figures.heldAcrossMarks = coinNotOfValuationHeld(state) || openOnTwoSyms(state);
    figures.heldAcrossMarksAt = state.portfolioVersion;
  }
  return figures.heldAcrossMarks;
}

function coinNotOfValuationHeld(state: SimState): boolean {
  for (const [coin, balance] of state.balancesN)
    if (balance !== 0 && !state.opts.valuationCoins.has(coin)) return true;
  return false;
}

function openOnTwoSyms(state: SimState): boolean {
  let first: string | undefined;
  for (const position of state.positions.values()) {
    if (position.qtyN === 0) continue;
    if (first === undefined) first = position.sym;
    else if (position.sym !== first) return true;
  }
  return false;
}

/** `coinsValuedBy` of `margin.ts` on numbers: the coins the sym's mark values, net of their maintenance. */
function coinsValuedByN(state: SimState, sym: string): number {
  let amount = 0;
  for (const [coin, balance] of state.balancesN)
    if (balance !== 0 && coinValuerOf(state, coin) === sym) amount += balance;
  const loanRate = state.opts.loans.maintenanceMarginRate.toNumber();
  for (const loan of state.loans.values())
    if (coinValuerOf(state, loan.coin) === sym) amount -= loan.principalN * (1 + loanRate);
  for (const position of state.positions.values()) {
    if (position.sym === sym || position.qtyN === 0) continue;
    if (coinValuerOf(state, state.opts.instruments.get(position.sym)?.settleAsset ?? 'USDT') !== sym)
      continue;
    const market = state.markets.get(position.sym);
    const mark = market ? markPriceOf(market) : Number.NaN;
    if (Number.isNaN(mark)) continue;
    const size = position.qtyN * position.contractSizeN;
    amount += size * (mark - position.avgN) - Math.abs(size) * mark * position.mmrN;
  }
  return amount;
}

/** liqPrice of a sym's positions on numbers, from the portfolio's equity and maintenance estimate. */
function estimatedLiq(
  state: SimState,
  sym: string,
  mark: number,
  equity: number,
  maintenance: number,
): number {
  let q = 0;
  let absQ = 0;
  let mmr = 0;
  for (const leg of state.positions.values()) {
    if (leg.sym !== sym || leg.qtyN === 0) continue;
    const size = leg.qtyN * leg.contractSizeN;
    q += size;
    absQ += Math.abs(size);
    mmr = leg.mmrN;
  }
  const coins = coinsValuedByN(state, sym);
  const denominator = q - absQ * mmr + coins;
  if (denominator === 0) return 0;
  const price = (maintenance - absQ * mark * mmr - equity + q * mark + coins * mark) / denominator;
  return price > 0 ? price : 0;
}

/** The last published liqPrice as a number (NaN before the first publication), converted once. */
function publishedLiqNumber(position: SimPosition): number {
  if (position.publishedLiqN === undefined)
    position.publishedLiqN =
      position.published === undefined ? Number.NaN : asNumber(position.published.liqPrice);
  return position.publishedLiqN;
}

/**
 * After a market event: republishes the positions of each sym whose estimated liqPrice moved by
 * more than the tolerance since it was last published. Nothing to do (no work per event) while
 * every open position is on one sym and no loan is valued at a mark: a sym's own mark cancels
 * out of its liqPrice.
 * @param state - the venue
 * @param equity - the portfolio equity estimated on numbers
 * @param maintenance - the maintenance margin estimated on numbers
 */
export function watchLiqPrices(state: SimState, equity: number, maintenance: number): void {
  if (!marksMoveLiqPrices(state)) return;
  const tolerance = state.opts.liqPriceTolerance;
  let exactEquity: Dec | undefined;
  for (const position of state.positions.values()) {
    if (position.qtyN === 0) continue;
    const market = state.markets.get(position.sym);
    const mark = market ? markPriceOf(market) : Number.NaN;
    if (Number.isNaN(mark)) continue;
    const liq = estimatedLiq(state, position.sym, mark, equity, maintenance);
    const published = publishedLiqNumber(position);
    if (Math.abs(liq - published) <= tolerance * Math.max(Math.abs(published), Math.abs(liq))) continue;
    exactEquity ??= equityOf(state);
    for (const leg of state.positions.values()) {
      if (leg.sym !== position.sym || leg.qtyN === 0) continue;
      publishPosition(state, leg, exactEquity);
      // The estimate is kept, not the exact price: the next estimate is compared with its like,
      // so a steady gap between the two (float rounding) never republishes on every event.
      leg.publishedLiqN = liq;
    }
  }
}

import type { Dec } from '../../core/model/index.ts';
import { asNumber, isAboveZero, ZERO } from '../../core/model/index.ts';
import { coinValue } from './coin-valuation.ts';
import { equityEstimateOf, marginFloorFrom } from './equity-estimate.ts';
import { fillFee } from './fee-model.ts';
import { availableMargin, orderCommitment } from './initial-margin.ts';
import { instrumentNumbers } from './instrument-numbers.ts';
import { valued } from './margin.ts';
import { markPriceOf } from './market-state.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';
import { spotRefusal } from './spot-balance-check.ts';
import { isAssetSettledSym } from './spot-holdings.ts';

/**
 * A number bound of the taker fee of an order's whole remainder (its opening part is at most that):
 * rate incl. markups x remainder x contract size x price, plus the fixed commissions, in the
 * account currency. NaN when its price or settle coin's value is unknown.
 */
function feeBoundOf(state: SimState, order: SimOrder): number {
  const spec = state.opts.instruments.get(order.sym);
  if (spec === undefined) return Number.NaN;
  const numbers = instrumentNumbers(spec);
  const market = state.markets.get(order.sym);
  const price = order.priceN > 0 ? order.priceN : market ? markPriceOf(market) : Number.NaN;
  const rate = Math.abs(numbers.taker + numbers.markup + asNumber(state.feeMarkup));
  const fee = order.remainingN * numbers.contractSize * price * rate + Math.abs(numbers.fixed);
  const settle = state.opts.valuationCoins.has(spec.settleAsset)
    ? 1
    : asNumber(coinValue(state, spec.settleAsset));
  return fee * settle;
}

/**
 * Whether the available margin certainly covers the order's fee, from the margin's number floor
 * with room for float rounding (a millionth of the amounts involved): then the order cannot fail
 * the margin check and the exact Decimal figures are not needed.
 */
function hasClearHeadroom(state: SimState, order: SimOrder): boolean {
  const equity = equityEstimateOf(state);
  return marginFloorFrom(state, equity) - feeBoundOf(state, order) > 1e-6 * (Math.abs(equity) + 1);
}

/**
 * The taker fee of an order's opening part, at the instrument's rate with its markup and the
 * sub-portfolio markup, plus the fixed commission per fill and, before its first fill, per order:
 * what the venue reserves with the order's margin (Keel's choice: taker, as the order may take).
 */
function openingFeeOf(state: SimState, order: SimOrder, openingNotional: Dec): Dec {
  const spec = state.opts.instruments.get(order.sym);
  if (spec === undefined) return ZERO;
  const { fee } = fillFee(spec.fees, 'TAKER', openingNotional, state.feeMarkup, order.filled.isZero());
  return valued(fee, coinValue(state, spec.settleAsset));
}

/**
 * Why an order failed the margin check, in the account currency; or, for a spot order, the balance
 * check (`spot-balance-check.ts`), in the coin it pays with.
 */
export interface MarginRefusal {
  /** What the order needs: the initial margin it adds (a spot order: what it pays) plus the fee of its opening part. */
  readonly needed: Dec;
  /** The fee part of `needed`. */
  readonly fee: Dec;
  /**
   * The available margin before the order (equity - initial margin of positions and other
   * orders); for a spot order the coin's balance less what the other open spot orders freeze.
   */
  readonly available: Dec;
  /** The coin of a spot order's figures (absent: margin, in the account currency). */
  readonly coin?: string;
  /** What the user should know of a spot refusal, appended to the detail. */
  readonly note?: string;
}

/**
 * The margin check of an order the venue holds (registered among its live orders). An order that
 * opens or adds to a position (in part: a reversal's opening part) needs the increase of its
 * position's margin requirement with it (`orderCommitment`: the closing part adds nothing and a
 * reversal is credited the margin it frees) plus the taker fee of its opening part, so that
 * paying the fee cannot take a leverage-1 account below zero. It fails when the available margin
 * before it is less than that. An order that only reduces never fails. So an account whose
 * positions already need more than its equity can only reduce, as on venues that block opening
 * orders while the available margin is negative (Keel's choice). An order on an asset-settled (spot)
 * sym takes the balance check instead (`spotRefusal`), reduce-only or not: it pays with an asset.
 * @param state - the venue
 * @param order - a registered order
 * @returns what it needed and what was available when it does not fit, undefined when it does
 */
export function marginRefusal(state: SimState, order: SimOrder): MarginRefusal | undefined {
  if (isAssetSettledSym(state, order.sym)) return spotRefusal(state, order);
  if (hasClearHeadroom(state, order)) return undefined;
  const { margin, openingNotional } = orderCommitment(state, order);
  if (!isAboveZero(openingNotional)) return undefined;
  const fee = openingFeeOf(state, order, openingNotional);
  const available = availableMargin(state).plus(margin);
  const needed = margin.plus(fee);
  return available.lt(needed) ? { needed, fee, available } : undefined;
}

/**
 * The 401023 detail of a refused order: what it needed and what was available.
 * @param refusal - the refusal
 * @param at - where the price came from, when that needs saying (e.g. `at 104 (...)`)
 * @returns e.g. `needs 10000.99 (margin 9990.00 + fee 10.99), available 10000.00`; for a spot
 *   order exact amounts in its coin, e.g. `needs 1 ETH, available 0 ETH; a spot SELL pays with ...`
 */
export function refusalDetail(refusal: MarginRefusal, at?: string): string {
  const { needed, fee, available, coin } = refusal;
  if (coin !== undefined) {
    const parts = fee.gt(0) ? ` (cost ${needed.minus(fee).toFixed()} + fee ${fee.toFixed()})` : '';
    const where = at === undefined ? '' : ` ${at}`;
    const note = refusal.note === undefined ? '' : `; ${refusal.note}`;
    return `needs ${needed.toFixed()} ${coin}${parts}${where}, available ${available.toFixed()} ${coin}${note}`;
  }
  const parts = fee.gt(0) ? ` (margin ${needed.minus(fee).toFixed(2)} + fee ${fee.toFixed(2)})` : '';
  const where = at === undefined ? '' : ` ${at}`;
  return `needs ${needed.toFixed(2)}${parts}${where}, available ${available.toFixed(2)}`;
}

/**
 * Whether an order's margin cannot be known yet: it has no limit price and its sym has no price
 * (a market order before the first quote, trade or bar). Its check waits for the first price.
 * @param state - the venue
 * @param order - a new order
 * @returns true when the order would add margin at a price nobody knows yet
 */
export function marginUnpriced(state: SimState, order: SimOrder): boolean {
  if (order.reduceOnly || !order.price.isZero()) return false;
  const market = state.markets.get(order.sym);
  return market === undefined || Number.isNaN(markPriceOf(market));
}

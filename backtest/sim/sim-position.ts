import type { Dec, OrderSide, Position, PositionSide } from '../../core/model/index.ts';
import { asNumber, D, isAboveZero, isBelowZero, shareOf, ZERO } from '../../core/model/index.ts';
import { timesSize } from './contract-size.ts';

/**
 * The simulated venue's mutable record of one position (sym + positionSide). `qty` is signed in
 * contracts: positive long, negative short. Number mirrors serve the per-event margin check.
 */
export interface SimPosition {
  readonly sym: string;
  readonly positionSide: PositionSide;
  qty: Dec;
  avgPrice: Dec;
  /**
   * What the open qty cost: the sum of price x qty of the fills that opened it (positive), less
   * the part closes took off. Realized PnL closes against it, so a position closed in full
   * realizes exactly its exits less its entries, though its average price may not be exact.
   */
  cost: Dec;
  qtyN: number;
  avgN: number;
  leverage: Dec;
  /** Contract size and maintenance margin rate as numbers, for the per-event margin check. */
  readonly contractSizeN: number;
  readonly mmrN: number;
  /**
   * The ADL rank last published (an adlRank event goes out when a publication changes it); views
   * compute the current one when read.
   */
  adlRank: number;
  /**
   * The view last published (undefined before the first publication): the mark it was published
   * at, and its liqPrice, divided only when read (`portfolio-views.ts`): the venue republishes a
   * position when its liqPrice moved (`liq-price-watch.ts`).
   */
  published?: Position;
  /**
   * The last published liqPrice as a number (NaN before the first publication; undefined until
   * first read after a publication, as only the market-event watch reads it and most runs never
   * need it).
   */
  publishedLiqN: number | undefined;
  createAt: number;
  updateAt: number;
  /**
   * The last unrealized PnL and notional computed, with the (immutable) qty, average price and
   * mark they were computed from: one fill's views ask for both several times over.
   */
  valuation?: PositionValuation;
}

/**
 * A position's unrealized PnL and notional at one qty, average price and mark, and what is
 * derived from the notional once first asked for (each fill's views ask for the margin three times).
 */
export interface PositionValuation {
  readonly qty: Dec;
  readonly avgPrice: Dec;
  readonly mark: Dec;
  readonly unrealizedPnl: Dec;
  readonly notional: Dec;
  /** notional / leverage, and the (immutable) leverage it was divided by. */
  margin?: { readonly leverage: Dec; readonly value: Dec };
  /** notional x maintenance margin rate, and the (immutable) rate it was multiplied by. */
  maintenance?: { readonly rate: Dec; readonly value: Dec };
}

/**
 * A new flat position.
 * @param sym - the symbol
 * @param positionSide - NONE (NET mode), LONG or SHORT (BOTH mode)
 * @param leverage - the sym's leverage
 * @param now - virtual time
 * @param numbers - contract size and maintenance margin rate as numbers
 * @returns the record
 */
export function flatPosition(
  sym: string,
  positionSide: PositionSide,
  leverage: Dec,
  now: number,
  numbers: { readonly contractSizeN: number; readonly mmrN: number },
): SimPosition {
  return {
    sym,
    positionSide,
    qty: ZERO,
    avgPrice: ZERO,
    cost: ZERO,
    qtyN: 0,
    avgN: 0,
    leverage,
    ...numbers,
    adlRank: 0,
    publishedLiqN: Number.NaN,
    createAt: now,
    updateAt: now,
  };
}

/**
 * Books a fill into a position: adds at a weighted average price, or closes its share of the cost
 * and realizes PnL (and opens the rest at the fill price when the fill flips the position).
 * @param position - the position, mutated
 * @param side - the fill's side
 * @param quantity - the fill's quantity (> 0)
 * @param price - the fill's price
 * @param contractSize - base units per contract
 * @returns the realized PnL of this fill in the settle asset
 */
export function bookFill(
  position: SimPosition,
  side: OrderSide,
  quantity: Dec,
  price: Dec,
  contractSize: Dec,
): Dec {
  const buying = side === 'BUY';
  const before = position.qty;
  const avgBefore = position.avgPrice;
  const held = before.abs();
  // The fill adds to a flat position or one on its side: the signs are read off the Decimals.
  const adds =
    before.isZero() || isAboveZero(before) === (buying ? isAboveZero(quantity) : isBelowZero(quantity));
  let realized = ZERO;
  if (adds) {
    position.cost = position.cost.plus(price.mul(quantity));
    position.avgPrice = before.isZero()
      ? openingPrice(position.avgPrice, quantity, price)
      : position.cost.div(held.plus(quantity));
  } else {
    // One comparison decides how much closes (all of it unless the fill is smaller) and what the
    // cost becomes: what is left of it after a part closes, the reversal's own, or zero once flat
    // (below), so the cost left is worked out only when some of the position stays.
    const order = held.cmp(quantity);
    const closing = order > 0 ? quantity : held;
    const closedCost = order > 0 ? shareOf(position.cost, closing, held) : position.cost;
    const long = timesSize(price.mul(closing).minus(closedCost), contractSize);
    realized = isAboveZero(before) ? long : long.neg();
    if (order > 0) position.cost = position.cost.minus(closedCost);
    else if (order < 0) {
      position.avgPrice = price;
      position.cost = price.mul(quantity.minus(held));
    }
  }
  position.qty = before.plus(buying ? quantity : quantity.neg());
  if (position.qty.isZero()) {
    position.avgPrice = ZERO;
    position.cost = ZERO;
  }
  position.qtyN = asNumber(position.qty);
  // A part closed keeps the average price (the same Decimal), and its number with it.
  if (position.avgPrice !== avgBefore) position.avgN = asNumber(position.avgPrice);
  return realized;
}

/**
 * The position's cost signed as its qty (negative short), so that qty x mark - signed cost is its
 * unrealized PnL in quote units, exactly: qty x (mark - avgPrice) with avgPrice = cost / |qty|.
 * @param position - the position's qty and cost
 * @returns the cost, negated for a short
 */
export function signedCost(position: { readonly qty: Dec; readonly cost: Dec }): Dec {
  return isBelowZero(position.qty) ? position.cost.neg() : position.cost;
}

/**
 * Unrealized PnL from a cost rather than an average price (a 40-digit rounding when the entries'
 * average does not end): contract size x (qty x mark - signed cost), which is
 * qty x contractSize x (mark - avgPrice) with avgPrice = cost / |qty|.
 * @param qty - the signed qty
 * @param cost - the cost signed as the qty ({@link signedCost})
 * @param mark - the mark
 * @param size - the contract size
 * @returns the unrealized PnL in the settle asset
 */
export function unrealizedFromCost(qty: Dec, cost: Dec, mark: Dec, size: Dec): Dec {
  return timesSize(qty.mul(mark).minus(cost), size);
}

/**
 * The average price of a position opened from flat: (avg x 0 + price x qty) / qty, which is the
 * price itself when the product is exact (their digits fit the precision) and the flat position's
 * average is zero, as a flat one's is; the Decimal formula otherwise.
 */
function openingPrice(flatAvg: Dec, quantity: Dec, price: Dec): Dec {
  if (flatAvg.isZero() && price.sd() + quantity.sd() <= PRECISION) return price;
  return flatAvg.mul(ZERO).plus(price.mul(quantity)).div(ZERO.plus(quantity));
}

/** Significant digits of Keel's Decimals (`core/model/decimal.ts`). */
const PRECISION = D.precision;

/**
 * How much of a fill would reduce a position (the part a reduce-only order may execute).
 * @param positionQty - the signed position
 * @param side - the order's side
 * @returns the quantity that reduces, 0 when the order would only increase
 */
export function reducibleQty(positionQty: Dec, side: OrderSide): Dec {
  if (side === 'BUY') return positionQty.isNegative() ? positionQty.abs() : ZERO;
  return isAboveZero(positionQty) ? positionQty : ZERO;
}

import type { Dec, InstrumentSpec } from '../model/index.ts';
import { asNumber, decimalForStep, decimalOf, floorToStep, ONE, ZERO } from '../model/index.ts';
import type { EquityEstimate } from './equity-estimate.ts';
import { clearOfOrderMinimums } from './order-minimums.ts';

/**
 * Refuses a sizing fraction (and price, when given) that is not positive.
 * @throws RangeError naming the input
 */
function checkSizingInputs(fraction: number, price?: number): void {
  if (!(fraction > 0)) throw new RangeError(`position sizing: fraction must be positive, got ${fraction}`);
  if (price !== undefined && !(price > 0))
    throw new RangeError(`position sizing: price must be positive, got ${price}`);
}

/**
 * The quantity worth a fraction of equity at a price, rounded down to the instrument's lot
 * size (backtesting.py's `size` between 0 and 1). Zero below the minimum size or, at `price`,
 * below the minimum notional, which no order could carry; not capped at the largest order
 * (maxMarketSize, maxLimitSize): a larger quantity is sent in pieces.
 * @param equity - account equity in the settle asset
 * @param fraction - share of equity to put in, in (0, 1] (more than 1 uses leverage)
 * @param price - the price the position is valued at
 * @param spec - the instrument (contract size, lot, minimum size and notional)
 * @returns the quantity, a multiple of the lot size, or zero
 * @throws RangeError when the fraction or the price is not positive
 */
export function qtyForEquityFraction(
  equity: Dec,
  fraction: number,
  price: number,
  spec: InstrumentSpec,
): Dec {
  checkSizingInputs(fraction, price);
  if (!equity.gt(0)) return ZERO;
  const lots = clearLotCount(asNumber(equity), 0, fraction, price, spec);
  const qty =
    lots === undefined
      ? floorToStep(equity.mul(fraction).div(spec.contractSize.mul(price)), spec.lotSize)
      : spec.lotSize.mul(lots);
  return clearOfOrderMinimums(qty, price, spec);
}

/**
 * The quantity worth a fraction of equity at a price once the fee of buying it is paid, rounded
 * down to the lot size, with Keel's fee at the instrument's taker rate (a market order takes):
 * backtesting.py's `margin_available * leverage * fraction / (price * (1 + commission))` with
 * equity in place of its free margin times leverage (the same when flat at its default margin of
 * 1), so the notional is a fraction of equity whatever the instrument's leverage. The
 * budget `equity * fraction`, less the fixed commissions of one order filled at once
 * (`fixedPerFill` + `fixedPerOrder`), buys `qty = budget / (contractSize * price * (1 + taker +
 * markup))`, so `qty * contractSize * price * (1 + taker + markup) + fixed <= equity * fraction`:
 * a fraction of 1 at leverage 1 leaves exactly room for its fee. A maker rebate (negative rate)
 * reserves nothing. The simulated venue's sub-portfolio markup (`backtest.subPortfolioMarkup`) is
 * not the instrument's and is not reserved. Zero below the minimum size or notional, as
 * {@link qtyForEquityFraction}.
 * @param equity - account equity in the settle asset
 * @param fraction - share of equity to spend, fee included, > 0 (more than 1 uses leverage)
 * @param price - the price the position is valued at
 * @param spec - the instrument (contract size, lot, minimum size and notional, fee schedule)
 * @returns the quantity, a multiple of the lot size, or zero
 * @throws RangeError when the fraction or the price is not positive
 * @example
 * // 10 000 USDT, fraction 1, taker 0.1 %: 10 000 / (40 000 x 1.001) = 0.24975... -> 0.249 BTC
 * qtyForEquityFractionAfterFee(D(10_000), 1, 40_000, btc);
 */
export function qtyForEquityFractionAfterFee(
  equity: Dec,
  fraction: number,
  price: number,
  spec: InstrumentSpec,
): Dec {
  checkSizingInputs(fraction, price);
  const { fees } = spec;
  const takerRate = fees.taker.plus(fees.markup);
  const rate = takerRate.isNegative() ? ZERO : takerRate;
  const fixed = fees.fixedPerFill.plus(fees.fixedPerOrder ?? ZERO);
  const budget = equity.mul(fraction).sub(fixed.isNegative() ? ZERO : fixed);
  if (!budget.gt(0)) return ZERO;
  const qty = floorToStep(budget.div(spec.contractSize.mul(price).mul(ONE.plus(rate))), spec.lotSize);
  return clearOfOrderMinimums(qty, price, spec);
}

/**
 * {@link qtyForEquityFraction} from an equity estimate, when every equity within its error bound
 * is positive and buys the same whole number of lots: the exact equity then gives that quantity
 * too, and is never computed.
 * @param equity - the estimate and its error bound
 * @param fraction - as in qtyForEquityFraction
 * @param price - as in qtyForEquityFraction
 * @param spec - as in qtyForEquityFraction
 * @returns the quantity, or undefined when only the exact equity can tell
 */
export function qtyForEquityEstimate(
  equity: EquityEstimate,
  fraction: number,
  price: number,
  spec: InstrumentSpec,
): Dec | undefined {
  const { value, error } = equity;
  if (!(value - error > 0) || !(fraction > 0) || !(price > 0)) return undefined;
  const lots = clearLotCount(value, error / value, fraction, price, spec);
  if (lots === undefined) return undefined;
  return clearOfOrderMinimums(spec.lotSize.mul(lots), price, spec);
}

/** Relative room left for float rounding when the estimate below decides alone. */
const ESTIMATE_MARGIN = 1e-9;

/** Doubles this far from 0 and 1 keep their relative precision through the few operations below. */
function isTame(x: number): boolean {
  const size = Math.abs(x);
  return size > 1e-60 && size < 1e60;
}

/**
 * The whole lots `equity * fraction / (contractSize * price)` is worth, on numbers, when the
 * quotient is farther from a whole number of lots than float rounding could move it: then the
 * Decimal quotient (two multiplies and two divisions at precision 40, ~2 µs) floors to the same
 * count, and `lotSize * count` is the very value the Decimal path gives. Each input converts to the
 * nearest double and each of the four operations rounds once, a relative error of a few 2^-53,
 * far inside ESTIMATE_MARGIN.
 * @param amount - the equity as a number
 * @param slack - how far the equity may be from `amount`, relative to it (0 when `amount` is the
 *   nearest double of the exact equity): the quotient may be that much further off
 * @returns the count, or undefined when only the exact path can tell
 */
function clearLotCount(
  amount: number,
  slack: number,
  fraction: number,
  price: number,
  spec: InstrumentSpec,
): number | undefined {
  const contractSize = asNumber(spec.contractSize);
  const lot = asNumber(spec.lotSize);
  if (!isTame(amount) || !isTame(fraction) || !isTame(price) || !isTame(contractSize) || !isTame(lot))
    return undefined;
  const estimate = (amount * fraction) / (contractSize * price) / lot;
  if (!(estimate < 2 ** 50)) return undefined;
  const lots = Math.floor(estimate);
  const room = estimate * (ESTIMATE_MARGIN + slack);
  return estimate - lots > room && lots + 1 - estimate > room ? lots : undefined;
}

/**
 * The quantity a cash amount buys at a price, rounded down to the lot size (see
 * {@link qtyForEquityFraction}).
 * @param cash - amount in the settle asset
 * @param price - the price
 * @param spec - the instrument
 * @returns the quantity, a multiple of the lot size, or zero below the minimum size or notional
 * @throws RangeError when the price is not positive
 */
export function qtyForCash(cash: Dec, price: number, spec: InstrumentSpec): Dec {
  return qtyForEquityFraction(cash, 1, price, spec);
}

/**
 * Rounds a quantity down to whole units (shares, contracts): backtesting.py's `size >= 1`.
 * @param qty - the quantity
 * @returns the largest whole number not above it (toward zero for negative quantities)
 */
export function wholeUnits(qty: Dec): Dec {
  return qty.isNegative() ? qty.neg().floor().neg() : qty.floor();
}

/**
 * Rounds a quantity toward zero to an instrument's lot grid (whole lots), keeping its sign.
 * @param qty - the quantity, in the instrument's quantity unit (shares, contracts, coins)
 * @param spec - the instrument (lot, minimum size and notional)
 * @param price - the price to check the minimum notional at; without one it is not checked
 * @returns a multiple of the lot size, or zero when less than one lot, below the minimum size or
 *   below the minimum notional at `price`
 */
export function qtyOnLotGrid(qty: Dec, spec: InstrumentSpec, price?: number): Dec {
  const size = clearOfOrderMinimums(floorToStep(qty.abs(), spec.lotSize), price, spec);
  return qty.isNegative() && !size.isZero() ? size.neg() : size;
}

/**
 * A sizing amount as a Decimal: a finite number or a finite Decimal.
 * @throws TypeError when it is neither, RangeError when it is not finite
 */
function amountOf(value: Dec | number, what: string): Dec {
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new RangeError(`position sizing: ${what} must be a finite number, got ${value}`);
    return decimalOf(value);
  }
  if (typeof (value as { isFinite?: unknown } | null)?.isFinite !== 'function')
    throw new TypeError(`position sizing: ${what} must be a number or a Decimal, got ${String(value)}`);
  if (!value.isFinite())
    throw new RangeError(`position sizing: ${what} must be finite, got ${value.toString()}`);
  return value;
}

/**
 * A quantity about to be rounded to whole units or lots: a number without its float noise (the
 * `4.35 * 100` of 435 units is 434.99999999999994), see decimalForStep.
 * @param value - the quantity
 * @param step - the grid it is rounded to: 1 for whole units, else the lot size
 */
function unitsAmountOf(value: Dec | number, step: Dec): Dec {
  const amount = amountOf(value, 'qty');
  return typeof value === 'number' ? decimalForStep(value, step) : amount;
}

/**
 * Position sizing for strategies, on the strategy's own view of the run (its equity, the
 * instrument and the reference price): what bar-backtest users know as `size` in
 * backtesting.py. Every quantity is on the instrument's lot grid and zero when no order could
 * carry it: below one lot, the minimum size or, at the price it is valued at, the minimum notional
 * (an order of zero is denied by the risk gate's `minSize` check: test `.isZero()` first to send
 * nothing). So it can go straight into an order at that price up to the largest order the
 * instrument takes (maxMarketSize, maxLimitSize), which is per order, not per position: a larger
 * quantity is left whole, for the strategy to send in pieces (as sma-cross does), and one order of
 * it is denied (`maxSize`). A limit order at another price, or a market order once the reference
 * price has moved, is judged at its own price. Amounts are numbers or Decimals.
 * @example
 * onBar: (ctx, bar) => ctx.order.market({ sym: bar.sym, side: 'BUY', qty: ctx.size.equityFraction(bar.sym, 0.5, bar.close) })
 */
export interface PositionSizer {
  /**
   * @param sym - the instrument
   * @param fraction - share of equity, > 0 (more than 1 uses leverage)
   * @param price - the price to value it at; default the reference price (quote mid, last trade, mark or bar close)
   * @param options - `{ reserveFee: true }` spends `fraction` of equity fee included, at the
   *   instrument's taker rate (see {@link qtyForEquityFractionAfterFee}); default false: the
   *   whole fraction buys the position and the fee comes on top
   * @returns the quantity worth `fraction` of equity, zero when the instrument or a price is unknown
   * @throws RangeError when the fraction or the given price is not positive
   * @example
   * ctx.size.equityFraction(bar.sym, 1, bar.close, { reserveFee: true })
   */
  equityFraction(sym: string, fraction: number, price?: number, options?: EquityFractionOptions): Dec;
  /**
   * @param sym - the instrument
   * @param cash - the amount to spend, in the settle asset (zero or less buys nothing)
   * @param price - as in {@link PositionSizer.equityFraction}
   * @returns the quantity it buys, zero when the instrument or a price is unknown
   * @throws RangeError when the cash is not finite or the given price is not positive
   */
  cash(sym: string, cash: Dec | number, price?: number): Dec;
  /**
   * A quantity on the instrument's lot grid: `units(sym, 200)` is 200 shares of a whole-share
   * equity, `units(sym, 0.0125)` is 0.012 of a coin traded in lots of 0.001.
   * @param sym - the instrument
   * @param qty - the quantity (shares, contracts, coins), a number or a Decimal
   * @returns it rounded toward zero to whole lots; zero when less than one lot, below the minimum
   *   size, or when the instrument is unknown. Not held to the minimum notional: `units` also sizes
   *   exits (`units(sym, ctx.netQty(sym))`), and a reducing market order below minNotional is taken
   * @throws RangeError when the quantity is not finite
   */
  units(sym: string, qty: Dec | number): Dec;
  /**
   * Without a sym: whole units (backtesting.py's `size >= 1`), not the lot grid.
   * @param qty - the quantity, a number or a Decimal
   * @returns it rounded toward zero to a whole number
   * @throws RangeError when the quantity is not finite
   */
  units(qty: Dec | number): Dec;
}

/** How {@link PositionSizer.equityFraction} sizes. */
export interface EquityFractionOptions {
  /**
   * Leave room for the fee of the order at the instrument's taker rate and fixed commissions, at
   * the price the quantity is valued at, with backtesting.py's formula (`price * (1 + commission)`,
   * which backtesting.py takes at the fill price). A fraction of 1 at leverage 1 then fits if the
   * order fills at that price; a market order filling higher (the next open above the signal bar's
   * close) can still be refused for margin: use e.g. 0.98 for such fills. Default false.
   */
  readonly reserveFee?: boolean;
}

/** What the sizer reads of the strategy's view. */
export interface SizerView {
  instrument(sym: string): InstrumentSpec | undefined;
  equity(): Dec;
  /** Equity on numbers with an error bound, cheaper than `equity()`; undefined when not known. */
  equityEstimate?(): EquityEstimate | undefined;
  referencePrice(sym: string): number | undefined;
}

/**
 * A {@link PositionSizer} over a strategy's view.
 * @param view - the strategy's context (instrument, equity, reference price)
 * @returns the sizer
 */
export function positionSizer(view: SizerView): PositionSizer {
  // The fraction goes into qtyForEquityFraction rather than a Decimal multiply first: it gives the
  // same quantity, and often with no Decimal work at all.
  const sized = (
    sym: string,
    amount: Dec,
    fraction: number,
    price: number | undefined,
    size = qtyForEquityFraction,
  ): Dec => {
    const spec = view.instrument(sym);
    const at = price ?? view.referencePrice(sym);
    if (spec === undefined || at === undefined) return ZERO;
    return size(amount, fraction, at, spec);
  };
  return {
    equityFraction: (sym, fraction, price, options) => {
      checkSizingInputs(fraction);
      if (options?.reserveFee === true)
        return sized(sym, view.equity(), fraction, price, qtyForEquityFractionAfterFee);
      // Most signals size the same from the equity on numbers: the exact equity costs a
      // Decimal conversion of the latest price and a few Decimal operations per position.
      const estimate = view.equityEstimate?.();
      if (estimate !== undefined) {
        const spec = view.instrument(sym);
        const at = price ?? view.referencePrice(sym);
        if (spec === undefined || at === undefined) return ZERO;
        const qty = qtyForEquityEstimate(estimate, fraction, at, spec);
        if (qty !== undefined) return qty;
      }
      return sized(sym, view.equity(), fraction, price);
    },
    cash: (sym, cash, price) => sized(sym, amountOf(cash, 'cash'), 1, price),
    units: (symOrQty: string | Dec | number, qty?: Dec | number): Dec => {
      if (typeof symOrQty !== 'string') return wholeUnits(unitsAmountOf(symOrQty, ONE));
      if (qty === undefined)
        throw new TypeError(
          `position sizing: units(${JSON.stringify(symOrQty)}) has no qty: call units(sym, qty)`,
        );
      const spec = view.instrument(symOrQty);
      const amount = unitsAmountOf(qty, spec?.lotSize ?? ONE);
      return spec === undefined ? ZERO : qtyOnLotGrid(amount, spec);
    },
  };
}

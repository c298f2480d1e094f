import type { Dec, InstrumentSpec } from '../../core/model/index.ts';
import { D, floorToStep, ZERO } from '../../core/model/index.ts';

/**
 * The quantity worth a fraction of equity at a price, rounded down to the instrument's lot
 * size (backtesting.py's `size` between 0 and 1). Below the minimum size it is zero.
 * @param equity - account equity in the settle asset
 * @param fraction - share of equity to put in, in (0, 1] (more than 1 uses leverage)
 * @param price - the price the position is valued at
 * @param spec - the instrument (contract size, lot and minimum size)
 * @returns the quantity, a multiple of the lot size, or zero
 * @throws RangeError when the fraction or the price is not positive
 */
export function qtyForEquityFraction(
  equity: Dec,
  fraction: number,
  price: number,
  spec: InstrumentSpec,
): Dec {
  if (!(fraction > 0)) throw new RangeError(`position sizing: fraction must be positive, got ${fraction}`);
  if (!(price > 0)) throw new RangeError(`position sizing: price must be positive, got ${price}`);
  const qty = floorToStep(equity.mul(fraction).div(spec.contractSize.mul(price)), spec.lotSize);
  return qty.lt(spec.minSize) ? ZERO : qty;
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
 * The quantity a fixed cash amount buys at a price, rounded down to the lot size.
 * @param cash - amount in the settle asset
 * @param price - the price
 * @param spec - the instrument
 * @returns the quantity, a multiple of the lot size, or zero below the minimum size
 */
export function qtyForCash(cash: Dec, price: number, spec: InstrumentSpec): Dec {
  return qtyForEquityFraction(cash, 1, price, spec);
}

/**
 * An instrument whose fee schedule is replaced by a flat commission (rate of notional and/or a
 * fixed amount per fill), the way bar-backtest users set `commission`.
 * @param spec - the instrument
 * @param commission - rate (0.001 = 10 bps) charged to makers and takers alike, fixed amount per fill
 * @returns the instrument with the new fee schedule (its markup kept)
 */
export function withCommission(
  spec: InstrumentSpec,
  commission: { readonly rate?: Dec; readonly fixedPerFill?: Dec },
): InstrumentSpec {
  const rate = commission.rate ?? D(0);
  return {
    ...spec,
    fees: {
      maker: rate,
      taker: rate,
      markup: spec.fees.markup,
      fixedPerFill: commission.fixedPerFill ?? D(0),
    },
  };
}

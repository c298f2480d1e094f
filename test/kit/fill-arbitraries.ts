import fc from 'fast-check';
import { D, type Dec, type OrderSide, type PositionSide } from '../../core/model/index.ts';
import type { PortfolioFill } from '../../core/portfolio/index.ts';

/**
 * A decimal on a grid: `units * step`, so generated prices and quantities are exact.
 * @param step - grid step as a string, e.g. "0.1"
 * @param minUnits - smallest multiple
 * @param maxUnits - largest multiple
 * @returns an arbitrary Decimal
 */
export function decimalOnGrid(step: string, minUnits: number, maxUnits: number): fc.Arbitrary<Dec> {
  return fc.integer({ min: minUnits, max: maxUnits }).map((units) => D(step).mul(units));
}

/**
 * Builds a fill with zero fee in USDT unless told otherwise.
 * @param fields - sym, side, quantity and price at least
 * @returns the fill
 */
export function aFill(
  fields: Pick<PortfolioFill, 'side' | 'quantity' | 'price'> & Partial<PortfolioFill>,
): PortfolioFill {
  return {
    sym: 'BINANCE_PERP_BTC_USDT',
    positionSide: 'NONE',
    fee: D(0),
    feeCoin: 'USDT',
    ...fields,
  };
}

/**
 * Random fills on the given syms and sides: quantities 0.001..5, prices 100.0..200.0, fees
 * 0..0.5 USDT.
 * @param syms - symbols to draw from
 * @param sides - position sides to draw from (NONE for NET mode; LONG and SHORT for BOTH)
 * @returns an arbitrary fill
 */
export function arbitraryFill(
  syms: readonly string[],
  sides: readonly PositionSide[] = ['NONE'],
): fc.Arbitrary<PortfolioFill> {
  return fc
    .record({
      sym: fc.constantFrom(...syms),
      side: fc.constantFrom<OrderSide>('BUY', 'SELL'),
      positionSide: fc.constantFrom(...sides),
      quantity: decimalOnGrid('0.001', 1, 5000),
      price: decimalOnGrid('0.1', 1000, 2000),
      fee: decimalOnGrid('0.01', 0, 50),
    })
    .map((fill) => ({ ...fill, feeCoin: 'USDT' }));
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bookFill, flatPosition } from '../../../backtest/sim/sim-position.ts';
import { D, type Dec, ZERO } from '../../../core/model/index.ts';

/** Positive Decimals of 1 to 40 significant digits. */
const amount: fc.Arbitrary<Dec> = fc
  .tuple(fc.bigInt({ min: 1n, max: 10n ** 40n - 1n }), fc.integer({ min: -30, max: 5 }))
  .map(([digits, exponent]) => D(`${digits}e${exponent}`));

describe('booking a fill', () => {
  it('opens a flat position at the average the formula gives, (0 x 0 + price x qty) / qty', () => {
    fc.assert(
      fc.property(amount, amount, fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'), (price, qty, side) => {
        const position = flatPosition('BTC', 'NONE', D(10), 0, { contractSizeN: 1, mmrN: 0.005 });
        bookFill(position, side, qty, price, D(1));
        const formula = ZERO.mul(ZERO).plus(price.mul(qty)).div(ZERO.plus(qty));
        expect(position.avgPrice.valueOf()).toBe(formula.valueOf());
        expect(position.qty.valueOf()).toBe((side === 'BUY' ? qty : qty.neg()).valueOf());
      }),
      { numRuns: 3000 },
    );
  });
});

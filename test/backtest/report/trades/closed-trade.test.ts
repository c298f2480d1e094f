import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AVERAGE_PRICE_DIGITS, priceOf } from '../../../../backtest/report/trades/closed-trade.ts';
import { D, type Dec } from '../../../../core/model/index.ts';

/** Decimals of 1 to 38 significant digits, as prices and quantities run, and far beyond. */
const aDecimal: fc.Arbitrary<Dec> = fc
  .tuple(fc.bigInt({ min: 1n, max: 10n ** 38n }), fc.integer({ min: -45, max: 10 }), fc.boolean())
  .map(([digits, exponent, negative]) => D(`${negative ? '-' : ''}${digits}e${exponent}`));

/** A cost of `price` times `qty` as the book sums it (rounded when the product has over 40 digits), or nudged off it. */
const aCost = (price: Dec, qty: Dec): fc.Arbitrary<Dec> =>
  fc
    .constantFrom('0', '1e-40', '-1e-30', '1e-8')
    .map((nudge) => price.mul(qty).add(D(nudge).mul(price.abs())));

describe('a trade price from its cost', () => {
  it('is the division to 15 significant digits, or the likely price itself when the cost is exactly it times the quantity', () => {
    fc.assert(
      fc.property(
        aDecimal,
        aDecimal.map((q) => q.abs()),
        aDecimal,
        fc.boolean(),
        (price, qty, other, fromPrice) =>
          fc.assert(
            fc.property(aCost(price, qty), (cost) => {
              const likely = fromPrice ? price : other;
              const exact = cost.div(qty);
              const got = priceOf(cost, qty, likely);
              if (got.eq(likely) && got.eq(exact)) return;
              expect(got.toFixed()).toBe(exact.toSignificantDigits(AVERAGE_PRICE_DIGITS).toFixed());
            }),
            { numRuns: 4 },
          ),
      ),
      { numRuns: 500 },
    );
  });

  it('divides when the price and quantity have too many digits for their product to be exact', () => {
    const price = D('1.532449204259928685070695293389675664');
    const qty = D('6.6864437');
    const cost = price.mul(qty);
    expect(priceOf(cost, qty, price).toFixed()).toBe(cost.div(qty).toSignificantDigits(15).toFixed());
    expect(cost.div(qty).eq(price)).toBe(false);
  });

  it('gives the first fill price of a trade filled at one price, and the average of one filled at two', () => {
    const price = D('40247.8');
    expect(priceOf(price.mul('2.487'), D('2.487'), price)).toBe(price);
    const cost = price.mul('1').add(D('40250').mul('1'));
    expect(priceOf(cost, D(2), price).toFixed()).toBe('40248.9');
  });

  it('gives an average that does not end to 15 significant digits, not the 40 of the division', () => {
    const cost = D('94961.4').add(D('94961.4')).add(D('94961.4218'));
    expect(cost.div(3).toFixed()).toHaveLength(41);
    expect(priceOf(cost, D(3), D('94961.4')).toFixed()).toBe('94961.4072666667');
  });
});

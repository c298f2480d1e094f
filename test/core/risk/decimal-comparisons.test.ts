import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, type Dec, isAboveZero } from '../../../core/model/index.ts';
import { isAtLeast, isAtMost } from '../../../core/risk/decimal-comparisons.ts';
import { minNotionalCheck } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimitOrder, aMarketOrder } from '../../kit/intent-builders.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';

/** Decimals of up to 30 significant digits, any sign, wide and narrow exponents, and their near neighbours. */
function arbitraryDecimalPair(): fc.Arbitrary<[Dec, Dec]> {
  const digits = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n });
  const exponent = fc.integer({ min: -40, max: 30 });
  const decimal = fc.tuple(digits, exponent).map(([d, e]) => D(`${d}e${e}`));
  const nudge = fc.constantFrom('0', '1e-30', '-1e-30', '1e-17', '-1e-17', '1e-12');
  return fc.oneof(
    fc.tuple(decimal, decimal),
    fc.tuple(decimal, nudge).map(([a, n]): [Dec, Dec] => [a, a.add(D(n).mul(a.abs().add(1)))]),
  );
}

describe('decimal comparisons', () => {
  it('decide >= and <= exactly as decimal.js does, however close the values', () => {
    fc.assert(
      fc.property(arbitraryDecimalPair(), ([a, b]) => {
        expect(isAtLeast(a, b)).toBe(a.greaterThanOrEqualTo(b));
        expect(isAtMost(a, b)).toBe(a.lessThanOrEqualTo(b));
        expect(isAboveZero(a)).toBe(a.gt(0));
      }),
      { numRuns: 3000 },
    );
  });

  it('treat zero, negative zero, infinities and NaN as decimal.js does', () => {
    const specials = [D(0), D('-0'), D(Infinity), D(-Infinity), D(NaN), D('1e-400'), D('1e400')];
    for (const a of specials) {
      expect(isAboveZero(a)).toBe(a.gt(0));
      for (const b of specials) {
        expect(isAtLeast(a, b)).toBe(a.greaterThanOrEqualTo(b));
        expect(isAtMost(a, b)).toBe(a.lessThanOrEqualTo(b));
      }
    }
  });
});

describe('minNotional on numbers first', () => {
  it('denies exactly the orders whose Decimal notional is below minNotional, however close', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2_000_000 }),
        fc.constantFrom('1', '0.001', '10', '0.1'),
        fc.constantFrom('5', '0.5', '100.000000000001', '99.99999999999999999'),
        fc.constantFrom('limit', 'market'),
        fc.integer({ min: -3, max: 3 }),
        (units, contractSize, minNotional, type, tweak) => {
          const view = aRiskView();
          const spec = anInstrument('BINANCE_PERP_BTC_USDT', {
            contractSize: D(contractSize),
            minNotional: D(minNotional),
          });
          view.instruments.set(spec.sym, spec);
          // A price that puts the notional on, or a hair either side of, the minimum.
          const qty = D('0.001').mul(units);
          const exact = D(minNotional).div(qty.mul(spec.contractSize));
          const price = exact.add(D(tweak).mul('1e-12')).toSignificantDigits(20);
          view.references.set(spec.sym, price.toNumber());
          const intent = type === 'limit' ? aLimitOrder({ qty, price }) : aMarketOrder({ qty });
          const at = type === 'limit' ? price : D(price.toNumber());
          const expected = qty.mul(spec.contractSize).mul(at).greaterThanOrEqualTo(spec.minNotional);
          const denial = minNotionalCheck.run({
            strategyId: 's',
            intent,
            view,
            limits: {},
            scope: 'portfolio',
          });
          expect(denial === undefined).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

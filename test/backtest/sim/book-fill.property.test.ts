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

  it('realizes exactly the exit value less the entry cost when a position opened in steps is closed in one fill', () => {
    const price = fc.integer({ min: 1, max: 10_000_000 }).map((n) => D(n).div(100));
    const qty = fc.integer({ min: 1, max: 100_000 }).map((n) => D(n).div(1000));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(price, qty), { minLength: 1, maxLength: 12 }),
        price,
        fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
        fc.constantFrom(D(1), D('0.001'), D(100)),
        (entries, exit, side, contractSize) => {
          const position = flatPosition('BTC', 'NONE', D(10), 0, { contractSizeN: 1, mmrN: 0.005 });
          for (const [p, q] of entries)
            expect(bookFill(position, side, q, p, contractSize).isZero()).toBe(true);
          const held = entries.reduce((sum, [, q]) => sum.plus(q), ZERO);
          const cost = entries.reduce((sum, [p, q]) => sum.plus(p.mul(q)), ZERO);
          const realized = bookFill(position, side === 'BUY' ? 'SELL' : 'BUY', held, exit, contractSize);
          const long = exit.mul(held).minus(cost).mul(contractSize);
          expect(realized.valueOf()).toBe((side === 'BUY' ? long : long.neg()).valueOf());
          expect(position.qty.isZero()).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('closes a third of a cost averaged over entries at its cost share rounded to 12 places, and the rest exactly', () => {
    const position = flatPosition('BTC', 'NONE', D(10), 0, { contractSizeN: 1, mmrN: 0.005 });
    for (const price of ['100', '100.1', '100.3']) bookFill(position, 'BUY', D(1), D(price), D(1));
    // cost 300.4 over 3: the third is 100.1333…, rounded to 100.133333333333
    expect(bookFill(position, 'SELL', D(1), D(101), D(1)).toFixed()).toBe('0.866666666667');
    expect(position.cost.toFixed()).toBe('200.266666666667');
    expect(bookFill(position, 'SELL', D(2), D(101), D(1)).toFixed()).toBe('1.733333333333');
  });

  it('rounds a cost share that ends past 12 places too, so the cost keeps at most 12 of its own', () => {
    const position = flatPosition('BTC', 'NONE', D(10), 0, { contractSizeN: 1, mmrN: 0.005 });
    bookFill(position, 'BUY', D('0.511'), D('95000.1'), D(1));
    bookFill(position, 'BUY', D('0.001'), D('95000.2'), D(1));
    // cost 48640.0513 over 0.512: closing 0.001 takes 95.0001001953125, rounded to 95.000100195312
    expect(bookFill(position, 'SELL', D('0.001'), D('95001'), D(1)).toFixed()).toBe('0.000899804688');
    expect(position.cost.toFixed()).toBe('48545.051199804688');
  });

  it('realizes exactly the exits less the entries over part closes, each a finite decimal', () => {
    const price = fc.integer({ min: 1, max: 10_000_000 }).map((n) => D(n).div(100));
    const qty = fc.integer({ min: 1, max: 100_000 }).map((n) => D(n).div(1000));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(price, qty), { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(price, fc.integer({ min: 1, max: 9 })), { minLength: 1, maxLength: 6 }),
        fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
        (entries, exits, side) => {
          const position = flatPosition('BTC', 'NONE', D(10), 0, { contractSizeN: 1, mmrN: 0.005 });
          for (const [p, q] of entries) bookFill(position, side, q, p, D(1));
          const exitSide = side === 'BUY' ? 'SELL' : 'BUY';
          let realized = ZERO;
          let exitValue = ZERO;
          // each exit closes a ninth-based share of what is held (never all), then the rest at the last price
          for (const [p, ninths] of exits) {
            const part = position.qty.abs().mul(ninths).div(10).toDecimalPlaces(3, D.ROUND_DOWN);
            if (part.isZero()) continue;
            const pnl = bookFill(position, exitSide, part, p, D(1));
            expect(pnl.decimalPlaces()).toBeLessThanOrEqual(12);
            realized = realized.plus(pnl);
            exitValue = exitValue.plus(p.mul(part));
          }
          const [last] = exits[exits.length - 1] as [Dec, number];
          const rest = position.qty.abs();
          realized = realized.plus(bookFill(position, exitSide, rest, last, D(1)));
          exitValue = exitValue.plus(last.mul(rest));
          const cost = entries.reduce((sum, [p, q]) => sum.plus(p.mul(q)), ZERO);
          const long = exitValue.minus(cost);
          expect(realized.toFixed()).toBe((side === 'BUY' ? long : long.neg()).toFixed());
        },
      ),
      { numRuns: 1000 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, shareOf } from '../../../core/model/index.ts';

describe('a part of an amount of money (shareOf)', () => {
  it('is the exact quotient when the division ends within 12 places, else rounded there', () => {
    expect(shareOf(D('300.4'), D(1), D(2)).toFixed()).toBe('150.2');
    // 95.0001001953125 ends in 13 places: rounded too, so an amount's places cannot grow share by share
    expect(shareOf(D('48640.0513'), D('0.001'), D('0.512')).toFixed()).toBe('95.000100195312');
  });

  it('is rounded half-even to 12 places when it does not end, or to the amount’s places when finer', () => {
    expect(shareOf(D('300.4'), D(1), D(3)).toFixed()).toBe('100.133333333333');
    expect(shareOf(D(1), D(2), D(3)).toFixed()).toBe('0.666666666667');
    expect(shareOf(D('0.1234567890123457'), D(1), D(11)).toFixed()).toBe('0.0112233444556678');
  });

  it('is within half a unit of the 12th place of amount x part / whole, never a 40-digit rounding', () => {
    const money = fc.integer({ min: 1, max: 10 ** 12 }).map((n) => D(n).div(10_000));
    const qty = fc.integer({ min: 1, max: 10 ** 6 }).map((n) => D(n).div(1000));
    fc.assert(
      fc.property(money, qty, qty, (amount, a, b) => {
        const [part, whole] = a.lte(b) ? [a, b] : [b, a];
        const share = shareOf(amount, part, whole);
        expect(share.minus(amount.mul(part).div(whole)).abs().lte('0.5e-12')).toBe(true);
        expect(share.sd()).toBeLessThan(38);
      }),
      { numRuns: 2000 },
    );
  });
});

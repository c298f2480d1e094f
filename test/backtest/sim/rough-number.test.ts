import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { roughNumberOf } from '../../../backtest/sim/rough-number.ts';
import type { UserEvent } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { aBar, aMarket, aSim } from '../../kit/sim-builders.ts';

describe('sim venue: rough numbers of money for the screens', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('reads any Decimal to within a hundred-trillionth of its double', () => {
    const digits = fc.stringMatching(/^[1-9]\d{0,39}$/);
    const decimal = fc
      .tuple(digits, fc.integer({ min: -40, max: 40 }), fc.boolean())
      .map(([mantissa, exponent, negative]) => D(`${negative ? '-' : ''}${mantissa}e${exponent}`));
    fc.assert(
      fc.property(decimal, (value) => {
        const exact = value.toNumber();
        expect(Math.abs(roughNumberOf(value) - exact)).toBeLessThanOrEqual(1e-14 * Math.abs(exact));
      }),
      { numRuns: 2000 },
    );
    expect(roughNumberOf(D('123.45'))).toBe(123.45);
    expect(roughNumberOf(D(0))).toBe(0);
    expect(roughNumberOf(D(Number.NaN))).toBeNaN();
  });

  it("reports a fill's account without printing its equity to a number", () => {
    // A taker fee of 5 bps on 100.0123 leaves a balance of more digits than a double holds.
    const t = aSim({ fillModel: 'bar', startingBalances: { USDT: D('1000.123456789012345') } });
    t.sim.onMarket(aBar(60_000, 100, 100, 100, 100));
    t.send(aMarket('a', 'BUY', '1'));
    const printed = vi.spyOn(Object.getPrototypeOf(D(1)), 'toNumber');
    let between = -1;
    t.sim.events.subscribe((event: UserEvent) => {
      if (event.kind === 'asset') between = printed.mock.calls.length;
      if (event.kind === 'account') between = printed.mock.calls.length - between;
    });
    t.sim.onMarket(aBar(120_000, 100.0123, 100.5, 99.5, 100));
    expect(t.of('account').at(-1)?.account.equity.toFixed()).toBe('1000.073450639012345');
    expect(between).toBe(0);
  });
});

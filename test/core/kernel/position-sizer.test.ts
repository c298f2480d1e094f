import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineStrategy,
  type PositionSizer,
  qtyForCash,
  qtyForEquityFraction,
  qtyForEquityFractionAfterFee,
  qtyOnLotGrid,
  wholeUnits,
} from '../../../core/kernel/index.ts';
import { positionSizer, qtyForEquityEstimate } from '../../../core/kernel/position-sizer.ts';
import { D, type Dec } from '../../../core/model/index.ts';
import { anEthSpot, anInstrument } from '../../kit/instrument-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';
import { aStrategyRig } from '../../kit/strategy-rig.ts';

describe('position sizing', () => {
  it('units keeps a quantity computed with numbers on its lot: 4.35 * 100 (434.99999999999994) is 435', () => {
    const spec = anInstrument(BTC, { lotSize: D('1'), minSize: D('1') });
    const sizer = positionSizer({
      instrument: () => spec,
      equity: () => D(0),
      referencePrice: () => undefined,
    });
    expect(sizer.units(BTC, 4.35 * 100).toFixed()).toBe('435');
    expect(sizer.units(4.35 * 100).toFixed()).toBe('435');
    expect(sizer.units(BTC, D('434.99999999999994')).toFixed()).toBe('434');
  });

  const btc = anInstrument(BTC);
  const aapl = anInstrument('US_EQUITY_AAPL', { lotSize: D(1), minSize: D(1) });

  it('sizes a fraction of equity, rounded down to the lot', () => {
    // 10 000 x 0.5 / 40 000 = 0.125 BTC
    expect(qtyForEquityFraction(D(10_000), 0.5, 40_000, btc).toFixed()).toBe('0.125');
    // 10 000 x 0.3 / 185.64 = 16.16... shares -> 16
    expect(qtyForEquityFraction(D(10_000), 0.3, 185.64, aapl).toFixed()).toBe('16');
    expect(qtyForCash(D(100), 185.64, aapl).toFixed()).toBe('0');
    expect(qtyForEquityFraction(D(-5), 0.5, 100, btc).toFixed()).toBe('0');
  });

  it('gives exactly the Decimal floor of equity x fraction / (contractSize x price) to the lot, however close to a lot', () => {
    const exact = (equity: Dec, fraction: number, price: number, spec: typeof btc): string => {
      const qty = equity
        .mul(fraction)
        .div(spec.contractSize.mul(price))
        .div(spec.lotSize)
        .floor()
        .mul(spec.lotSize);
      const below = qty.lt(spec.minSize) || qty.mul(spec.contractSize).mul(price).lt(spec.minNotional);
      return (below ? D(0) : qty).toString();
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.constantFrom(-2, -1, 0, 1, 2),
        fc.constantFrom('1e-30', '1e-20', '1e-12', '1e-8', '0.3'),
        fc.constantFrom(0.1, 0.5, 1, 0.3333, 2.5),
        fc.constantFrom(40_000, 185.64, 0.00123, 99_999.9),
        fc.constantFrom(
          btc,
          aapl,
          anInstrument('OKX_PERP_ETH_USDT', { contractSize: D('0.01'), lotSize: D('0.5') }),
        ),
        (lots, sign, nudge, fraction, price, spec) => {
          // Equity worth `lots` whole lots, nudged a hair either side (or not at all).
          const onLots = D(lots).mul(spec.lotSize).mul(spec.contractSize).mul(price).div(fraction);
          const equity = onLots.add(onLots.mul(nudge).mul(sign));
          expect(qtyForEquityFraction(equity, fraction, price, spec).toString()).toBe(
            exact(equity, fraction, price, spec),
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('sizes ctx.size.equityFraction as the fraction of equity taken first, then sized as cash', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.constantFrom(0.1, 0.3333, 0.5, 1, 2.5, 1e-9),
        fc.constantFrom(40_000, 185.64, 0.00123),
        (cents, fraction, price) => {
          const equity = D(cents).div(100);
          const sizer = positionSizer({
            instrument: () => btc,
            equity: () => equity,
            referencePrice: () => price,
          });
          expect(sizer.equityFraction(BTC, fraction).toString()).toBe(
            qtyForEquityFraction(equity.mul(fraction), 1, price, btc).toString(),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('never spends more than the fraction, and stays on the lot grid at or above the minimum size', () => {
    // The spending bound alone: minNotional is position-sizer-order-rules.test.ts's.
    const btc = anInstrument(BTC, { minNotional: D(0) });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 2_000_000 }),
        (cents, percent, priceTenths) => {
          const equity = D(cents).div(100);
          const fraction = percent / 100;
          const price = priceTenths / 10;
          const qty = qtyForEquityFraction(equity, fraction, price, btc);
          expect(qty.mul(price).lte(equity.mul(fraction))).toBe(true);
          expect(qty.mod(btc.lotSize).isZero()).toBe(true);
          expect(qty.isZero() || qty.gte(btc.minSize)).toBe(true);
          // One more lot would spend more than the fraction.
          expect(qty.plus(btc.lotSize).mul(price).gt(equity.mul(fraction))).toBe(true);
        },
      ),
    );
  });

  it('sizes from an equity estimate only when every equity within its error bound gives the same quantity', () => {
    const spec = anInstrument('OKX_PERP_ETH_USDT', { contractSize: D('0.01'), lotSize: D('0.5') });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.constantFrom(-2, -1, 0, 1, 2),
        fc.constantFrom('1e-13', '1e-10', '1e-8', '0.3'),
        fc.constantFrom(0, 1e-12, 1e-9, 1e-6),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.constantFrom(0.1, 0.5, 0.3333, 2.5),
        fc.constantFrom(40_000, 185.64, 0.00123),
        fc.constantFrom(btc, spec),
        (lots, sign, nudge, relativeError, where, fraction, price, instrument) => {
          const onLots = D(lots)
            .mul(instrument.lotSize)
            .mul(instrument.contractSize)
            .mul(price)
            .div(fraction);
          const equity = onLots.add(onLots.mul(nudge).mul(sign));
          // The estimate is off by up to its error bound, either way.
          const error = equity.abs().toNumber() * relativeError;
          const value = equity.toNumber() + where * error;
          const qty = qtyForEquityEstimate({ value, error }, fraction, price, instrument);
          if (qty !== undefined)
            expect(qty.toString()).toBe(qtyForEquityFraction(equity, fraction, price, instrument).toString());
        },
      ),
    );
  });

  it('reads the exact equity only when its estimate cannot decide', () => {
    let exactReads = 0;
    const view = (estimate: { value: number; error: number }) =>
      positionSizer({
        instrument: () => btc,
        referencePrice: () => 40_000,
        equity: () => {
          exactReads++;
          return D(estimate.value);
        },
        equityEstimate: () => estimate,
      });
    // 10 010 x 0.5 / 40 000 = 0.1251 BTC: 125.1 lots, clear of the lot grid by far.
    expect(view({ value: 10_010, error: 1 }).equityFraction(BTC, 0.5).toFixed()).toBe('0.125');
    expect(exactReads).toBe(0);
    // Within its error bound the equity might buy a lot more or less: the exact equity decides.
    expect(view({ value: 10_010, error: 100 }).equityFraction(BTC, 0.5).toFixed()).toBe('0.125');
    expect(exactReads).toBe(1);
    expect(view({ value: 1, error: 2 }).equityFraction(BTC, 0.5).toFixed()).toBe('0');
    expect(exactReads).toBe(2);
  });

  it('rounds to whole units toward zero', () => {
    expect(wholeUnits(D('16.9')).toFixed()).toBe('16');
    expect(wholeUnits(D('-16.9')).toFixed()).toBe('-16');
  });

  it('rounds a quantity toward zero to whole lots, zero below one lot or the minimum size', () => {
    expect(qtyOnLotGrid(D('0.0125'), btc).toFixed()).toBe('0.012');
    expect(qtyOnLotGrid(D('-0.0125'), btc).toFixed()).toBe('-0.012');
    expect(qtyOnLotGrid(D('0.0009'), btc).toFixed()).toBe('0');
    expect(qtyOnLotGrid(D('16.9'), aapl).toFixed()).toBe('16');
    const lots = anInstrument(BTC, { lotSize: D('0.001'), minSize: D('0.01') });
    expect(qtyOnLotGrid(D('0.0099'), lots).toFixed()).toBe('0');
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), (tenThousandths) => {
        const qty = D(tenThousandths).div(10_000);
        const lot = qtyOnLotGrid(qty, btc);
        expect(lot.mod(btc.lotSize).isZero()).toBe(true);
        expect(lot.abs().lte(qty.abs())).toBe(true);
        expect(qty.abs().sub(lot.abs()).lt(btc.lotSize)).toBe(true);
        expect(lot.isZero() || lot.isNegative() === qty.isNegative()).toBe(true);
      }),
    );
  });

  it('refuses a non-positive fraction or price', () => {
    expect(() => qtyForEquityFraction(D(1), 0, 1, btc)).toThrow(/fraction must be positive/);
    expect(() => qtyForEquityFraction(D(1), 1, 0, btc)).toThrow(/price must be positive/);
  });

  it('gives strategies ctx.size on their own equity and the reference price', async () => {
    const seen: Record<string, string> = {};
    const probe = defineStrategy({
      name: 'sizer-probe',
      description: 'Records what ctx.size gives on the first quote.',
      params: z.object({}),
      onQuote: (ctx) => {
        if (seen.half !== undefined) return;
        const size: PositionSizer = ctx.size;
        const text = (qty: Dec): string => qty.toFixed();
        seen.half = text(size.equityFraction(BTC, 0.5));
        seen.atPrice = text(size.equityFraction(BTC, 0.5, 40_000));
        seen.cash = text(size.cash(BTC, 1_000));
        seen.unknown = text(size.equityFraction('BINANCE_PERP_XRP_USDT', 0.5));
        seen.units = text(size.units(D('2.7')));
      },
    });
    const rig = await aStrategyRig([{ id: 'probe', strategy: probe, params: {} }], { cash: 10_000 });
    // Mid 20 000.5: 5 000 / 20 000.5 = 0.24999... -> 0.249 on the 0.001 lot.
    rig.push(aQuote(1_000, 20_000, 20_001));
    expect(seen).toEqual({ half: '0.249', atPrice: '0.125', cash: '0.049', unknown: '0', units: '2' });
  });

  it('takes units as the README writes them: a number or a Decimal, on the lot grid of the sym', async () => {
    const seen: Record<string, string> = {};
    const errors: string[] = [];
    const probe = defineStrategy({
      name: 'units-probe',
      params: z.object({}),
      onQuote: (ctx) => {
        if (seen.shares !== undefined) return;
        const text = (qty: Dec): string => qty.toFixed();
        seen.shares = text(ctx.size.units(200));
        seen.decimal = text(ctx.size.units(D('2.7')));
        seen.lots = text(ctx.size.units(BTC, 0.0125));
        seen.lotsOfDecimal = text(ctx.size.units(BTC, D('-0.0125')));
        seen.belowOneLot = text(ctx.size.units(BTC, 0.0004));
        seen.unknown = text(ctx.size.units('BINANCE_PERP_XRP_USDT', 5));
        seen.cashOfNumber = text(ctx.size.cash(BTC, 1_000, 40_000));
        for (const bad of [
          () => ctx.size.units(Number.NaN),
          () => ctx.size.units(BTC, Infinity),
          () => ctx.size.cash(BTC, Number.NaN),
        ]) {
          try {
            bad();
          } catch (error) {
            errors.push(String(error));
          }
        }
      },
    });
    const rig = await aStrategyRig([{ id: 'probe', strategy: probe, params: {} }]);
    rig.push(aQuote(1_000, 20_000, 20_001));
    expect(rig.faults).toEqual([]);
    expect(seen).toEqual({
      shares: '200',
      decimal: '2',
      lots: '0.012',
      lotsOfDecimal: '-0.012',
      belowOneLot: '0',
      unknown: '0',
      cashOfNumber: '0.025',
    });
    expect(errors).toEqual([
      'RangeError: position sizing: qty must be a finite number, got NaN',
      'RangeError: position sizing: qty must be a finite number, got Infinity',
      'RangeError: position sizing: cash must be a finite number, got NaN',
    ]);
  });

  describe('leaving room for the fee (reserveFee)', () => {
    const spot = anEthSpot();
    const shares = anInstrument('US_EQUITY_AAPL', {
      lotSize: D(1),
      minSize: D(1),
      fees: { maker: D(0), taker: D(0), markup: D(0), fixedPerFill: D('0.5'), fixedPerOrder: D(1) },
    });

    it('sizes as backtesting.py does: equity x fraction / (price x (1 + taker rate)), on the lot', () => {
      // 10 000 x 1 / (2 000 x 1.001) = 4.99500... ETH -> 4.995; without the fee 5, which costs 10 010.
      expect(qtyForEquityFractionAfterFee(D(10_000), 1, 2_000, spot).toFixed()).toBe('4.995');
      expect(qtyForEquityFraction(D(10_000), 1, 2_000, spot).toFixed()).toBe('5');
      // 10 000 x 0.5 / (40 000 x 1.0005) = 0.124937... BTC -> 0.124 (0.125 without the fee).
      expect(qtyForEquityFractionAfterFee(D(10_000), 0.5, 40_000, btc).toFixed()).toBe('0.124');
      // The instrument's own markup is part of its taker rate: 10 000 / (2 000 x 1.002) = 4.99001... -> 4.99.
      const markedUp = anEthSpot({ fees: { ...spot.fees, markup: D('0.001') } });
      expect(qtyForEquityFractionAfterFee(D(10_000), 1, 2_000, markedUp).toFixed()).toBe('4.99');
    });

    it('takes the fixed commissions of one order filled at once off the budget', () => {
      // (1 000 - 0.5 per fill - 1 per order) / 10 = 99.85 shares -> 99 (100 without the fee).
      expect(qtyForEquityFractionAfterFee(D(1_000), 1, 10, shares).toFixed()).toBe('99');
      expect(qtyForEquityFraction(D(1_000), 1, 10, shares).toFixed()).toBe('100');
      // A budget the commissions eat whole buys nothing.
      expect(qtyForEquityFractionAfterFee(D('1.5'), 1, 0.01, shares).toFixed()).toBe('0');
    });

    it('reserves nothing for a maker rebate, and refuses a non-positive fraction or price', () => {
      const rebate = anInstrument(BTC, { fees: { ...btc.fees, taker: D('-0.0001') } });
      expect(qtyForEquityFractionAfterFee(D(10_000), 0.5, 40_000, rebate).toFixed()).toBe('0.125');
      expect(() => qtyForEquityFractionAfterFee(D(1), 0, 1, btc)).toThrow(/fraction must be positive/);
      expect(() => qtyForEquityFractionAfterFee(D(1), 1, -1, btc)).toThrow(/price must be positive/);
    });

    it('never spends more than the fraction with the taker fee, and one lot more would', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 10_000_000 }),
          fc.integer({ min: 1, max: 200 }),
          fc.integer({ min: 1, max: 2_000_000 }),
          fc.integer({ min: 0, max: 100 }),
          (cents, percent, priceTenths, takerBps) => {
            // The spending bound alone: minNotional is position-sizer-order-rules.test.ts's.
            const spec = anEthSpot({
              minNotional: D(0),
              fees: { ...spot.fees, taker: D(takerBps).div(10_000) },
            });
            const equity = D(cents).div(100);
            const budget = equity.mul(percent / 100);
            const price = priceTenths / 10;
            const qty = qtyForEquityFractionAfterFee(equity, percent / 100, price, spec);
            const cost = (q: Dec): Dec => q.mul(price).mul(spec.fees.taker.plus(1));
            expect(cost(qty).lte(budget)).toBe(true);
            expect(qty.mod(spec.lotSize).isZero()).toBe(true);
            expect(cost(qty.plus(spec.lotSize)).gt(budget)).toBe(true);
          },
        ),
      );
    });

    it('is what ctx.size.equityFraction gives with { reserveFee: true }, and the default is unchanged', async () => {
      const seen: Record<string, string> = {};
      const probe = defineStrategy({
        name: 'fee-room-probe',
        params: z.object({}),
        onQuote: (ctx) => {
          if (seen.reserved !== undefined) return;
          seen.reserved = ctx.size.equityFraction(BTC, 1, 40_000, { reserveFee: true }).toFixed();
          seen.atReference = ctx.size.equityFraction(BTC, 1, undefined, { reserveFee: true }).toFixed();
          seen.plain = ctx.size.equityFraction(BTC, 1, 40_000, { reserveFee: false }).toFixed();
          seen.unknown = ctx.size
            .equityFraction('BINANCE_PERP_XRP_USDT', 1, 1, { reserveFee: true })
            .toFixed();
        },
      });
      const rig = await aStrategyRig([{ id: 'probe', strategy: probe, params: {} }], { cash: 10_000 });
      rig.push(aQuote(1_000, 20_000, 20_001));
      expect(rig.faults).toEqual([]);
      // 10 000 / (40 000 x 1.0005) = 0.24987... -> 0.249; at the mid 20 000.5: 10 000 / (20 000.5 x
      // 1.0005) = 0.49973... -> 0.499; without the fee 10 000 / 40 000 = 0.25.
      expect(seen).toEqual({ reserved: '0.249', atReference: '0.499', plain: '0.25', unknown: '0' });
    });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { badQtyOrPrice } from '../../../backtest/sim/order-parameters.ts';
import {
  defineStrategy,
  qtyForCash,
  qtyForEquityFraction,
  qtyForEquityFractionAfterFee,
  qtyOnLotGrid,
} from '../../../core/kernel/index.ts';
import { positionSizer } from '../../../core/kernel/position-sizer.ts';
import { D, type Dec, type InstrumentSpec } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimitOrder, aMarketOrder } from '../../kit/intent-builders.ts';
import { BTC } from '../../kit/kernel-events.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';
import { aQuote } from '../../kit/sim-builders.ts';
import { aStrategyRig } from '../../kit/strategy-rig.ts';

// minNotional 100 USDT, at most 100 BTC in a market order and 1000 in a limit order.
const btc = anInstrument(BTC, { minNotional: D(100) });

/** Specs whose rules bite: a minimum notional far above one lot, maxima off the lot grid. */
const specs: readonly InstrumentSpec[] = [
  btc,
  anInstrument(BTC, {
    contractSize: D('0.01'),
    lotSize: D('0.5'),
    minSize: D(1),
    minNotional: D(250),
    maxMarketSize: D('37.3'),
    maxLimitSize: D(2_000),
  }),
  anInstrument(BTC, { maxLimitSize: D('12.3456'), maxMarketSize: D(500), minNotional: D(1) }),
  anInstrument('US_EQUITY_AAPL', {
    tickSize: D('0.01'),
    lotSize: D(1),
    minSize: D(1),
    minNotional: D(1_000),
    maxMarketSize: D(3_000),
    maxLimitSize: D(10_000),
  }),
];

describe('sized quantities an order can carry', () => {
  it('are zero below minNotional at the price they are sized at, as below one lot', () => {
    // 10 000 x 0.008 / 40 000 = 0.002 BTC: two lots, but 80 USDT, under the 100 minimum.
    expect(qtyForEquityFraction(D(10_000), 0.008, 40_000, btc).toFixed()).toBe('0');
    expect(qtyForEquityFractionAfterFee(D(10_000), 0.008, 40_000, btc).toFixed()).toBe('0');
    expect(qtyForCash(D(80), 40_000, btc).toFixed()).toBe('0');
    expect(qtyOnLotGrid(D('0.002'), btc, 40_000).toFixed()).toBe('0');
    // 0.003 BTC is 120 USDT: enough.
    expect(qtyForCash(D(120), 40_000, btc).toFixed()).toBe('0.003');
    expect(qtyOnLotGrid(D('-0.003'), btc, 40_000).toFixed()).toBe('-0.003');
  });

  it('come out of ctx.size as the venue takes them: opening sizers valued at the reference price', () => {
    const sizer = positionSizer({
      instrument: () => btc,
      equity: () => D(10_000_000),
      referencePrice: () => 40_000,
    });
    expect(sizer.equityFraction(BTC, 0.000008).toFixed()).toBe('0');
    expect(sizer.equityFraction(BTC, 0.000012).toFixed()).toBe('0.003');
    expect(sizer.cash(BTC, 80).toFixed()).toBe('0');
    // units also sizes exits: a reducing market order below minNotional is taken.
    expect(sizer.units(BTC, 0.002).toFixed()).toBe('0.002');
    // Order maxima limit one order, not a position: 250 BTC is sent in pieces of at most 100.
    expect(sizer.equityFraction(BTC, 1).toFixed()).toBe('250');
    expect(sizer.units(BTC, 250).toFixed()).toBe('250');
    const unpriced = positionSizer({
      instrument: () => btc,
      equity: () => D(0),
      referencePrice: () => undefined,
    });
    // No price to value it at: minNotional is left to the order's own price.
    expect(unpriced.cash(BTC, 80).toFixed()).toBe('0');
  });

  it('any non-zero quantity a sizer gives passes the risk gate and the simulated venue at its price, up to the order maxima', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...specs),
        fc.integer({ min: 0, max: 2_000_000_000 }),
        fc.constantFrom(0.001, 0.01, 0.1, 0.3333, 1, 2.5),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.double({ min: 0, max: 1e-6, noNaN: true }),
        fc.constantFrom('equityFraction', 'estimate', 'reserveFee', 'cash'),
        (spec, cents, fraction, ticks, relativeError, how) => {
          const equity = D(cents).div(100);
          const price = D(ticks).mul(spec.tickSize).toNumber();
          const sizer = positionSizer({
            instrument: () => spec,
            equity: () => equity,
            referencePrice: () => price,
            ...(how === 'estimate'
              ? {
                  equityEstimate: () => ({
                    value: equity.toNumber(),
                    error: equity.toNumber() * relativeError,
                  }),
                }
              : {}),
          });
          const qty = sized(sizer, spec, how, equity, fraction);
          if (qty.isZero()) return;
          expectOrderable(qty, price, spec);
        },
      ),
      { numRuns: 600 },
    );
  });
});

describe('ctx.size.units', () => {
  it('gives any position a reduce-only market order can close, below minNotional too', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...specs),
        fc.integer({ min: 0, max: 2_000_000_000 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        (spec, thousandths, ticks) => {
          const price = D(ticks).mul(spec.tickSize).toNumber();
          const sizer = positionSizer({
            instrument: () => spec,
            equity: () => D(0),
            referencePrice: () => price,
          });
          const qty = sizer.units(spec.sym, D(thousandths).div(1_000));
          if (qty.isZero() || qty.gt(spec.maxMarketSize)) return;
          const view = aRiskView();
          view.instruments.set(spec.sym, spec);
          view.references.set(spec.sym, price);
          view.setPosition(spec.sym, qty.toFixed());
          const equity = spec.id.kind === 'equity';
          const exit = aMarketOrder({
            sym: spec.sym,
            side: 'SELL',
            qty,
            timeInForce: equity ? 'FAK' : 'IOC',
          });
          expectApproved({ ...exit, reduceOnly: true }, view);
          expect(badQtyOrPrice({ qty, orderType: 'MARKET' }, spec)).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('sizes the exit of a position that fell below minNotional, which then closes (review of 9ceeb54)', async () => {
    let step = 0;
    const sized: string[] = [];
    const probe = defineStrategy({
      name: 'probe',
      params: z.object({}),
      onQuote: (ctx) => {
        step++;
        if (step === 1) return ctx.order.market({ sym: BTC, side: 'BUY', qty: '0.06' });
        if (step === 3) {
          // 0.06 x 80 = 4.8 USDT, under the rig's 5 USDT minNotional.
          const qty = ctx.size.units(BTC, ctx.netQty(BTC));
          sized.push(qty.toFixed());
          return ctx.order.market({ sym: BTC, side: 'SELL', qty, reduceOnly: true });
        }
        return undefined;
      },
    });
    const rig = await aStrategyRig([{ id: 's', strategy: probe, params: {} }]);
    rig.push(aQuote(1000, 99.9, 100, 100, 100));
    rig.push(aQuote(2000, 99.9, 100, 100, 100));
    rig.push(aQuote(3000, 79.9, 100, 80, 100));
    rig.push(aQuote(4000, 79.9, 100, 80, 100));
    expect(sized).toEqual(['0.06']);
    expect(rig.denials.map((d) => d.reason)).toEqual([]);
    expect((await rig.venueQty()).toFixed()).toBe('0');
  });
});

function sized(
  sizer: ReturnType<typeof positionSizer>,
  spec: InstrumentSpec,
  how: string,
  equity: Dec,
  fraction: number,
): Dec {
  switch (how) {
    case 'reserveFee':
      return sizer.equityFraction(spec.sym, fraction, undefined, { reserveFee: true });
    case 'cash':
      return sizer.cash(spec.sym, equity.mul(fraction));
    default:
      return sizer.equityFraction(spec.sym, fraction);
  }
}

/**
 * A limit order at the price and a market order at the reference price both pass gate and sim, or
 * are refused for their order type's maximum alone when above it.
 */
function expectOrderable(qty: Dec, price: number, spec: InstrumentSpec): void {
  const view = aRiskView();
  view.instruments.set(spec.sym, spec);
  view.references.set(spec.sym, price);
  const sym = spec.sym;
  const equity = spec.id.kind === 'equity';
  const limit = aLimitOrder({ sym, qty, price: D(price), timeInForce: equity ? 'DAY' : 'GTC' });
  const market = aMarketOrder({ sym, qty, timeInForce: equity ? 'FAK' : 'IOC' });
  if (qty.lte(spec.maxLimitSize)) {
    expectApproved(limit, view);
    expect(badQtyOrPrice({ qty, orderType: 'LIMIT', price: D(price) }, spec)).toBeUndefined();
  } else {
    expectDenied('maxSize', limit, view);
    expect(badQtyOrPrice({ qty, orderType: 'LIMIT', price: D(price) }, spec)).toMatch(/maxLimitSize/);
  }
  if (qty.lte(spec.maxMarketSize)) {
    expectApproved(market, view);
    expect(badQtyOrPrice({ qty, orderType: 'MARKET' }, spec)).toBeUndefined();
  } else {
    expectDenied('maxSize', market, view);
    expect(badQtyOrPrice({ qty, orderType: 'MARKET' }, spec)).toMatch(/maxMarketSize/);
  }
}

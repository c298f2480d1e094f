import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, decimalOfComputed } from '../../../core/model/index.ts';
import { minNotionalCheck } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimitOrder, aMarketOrder } from '../../kit/intent-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';

describe('order size checks (tick 0.1, lot 0.001, minSize 0.001, minNotional 5, maxLimitSize 1000, maxMarketSize 100)', () => {
  it('denies a price off the tick size and says which field', () => {
    const reason = expectDenied('priceOnTick', aLimitOrder({ price: D('100.05') }), aRiskView());
    expect(reason).toContain('price 100.05 is not a multiple');
  });
  it('denies a modify to a price off the tick size and says which field', () => {
    const view = aRiskView();
    view.orders = [{ strategyId: 's1', order: anOrder({ clientOrderId: 'open-1' }) }];
    const modify = { kind: 'modifyOrder', ref: 'm', target: 'open-1', sym: 'BINANCE_PERP_BTC_USDT' } as const;
    expect(expectDenied('priceOnTick', { ...modify, price: D('100.05') }, view)).toBe(
      "modifyOrder m: price 100.05 is not a multiple of BINANCE_PERP_BTC_USDT's tick size 0.1",
    );
    expectApproved({ ...modify, price: D('100.1') }, view);
  });
  it('denies a take-profit trigger off the tick size', () => {
    const tp = { triggerPrice: D('110.01'), triggerType: 'MarkPrice', price: D('0') } as const;
    expectDenied('priceOnTick', aLimitOrder({ tp }), aRiskView());
  });
  it('passes prices on the tick size', () => {
    expectApproved(aLimitOrder({ price: D('100.1') }), aRiskView());
  });

  it('denies a quantity off the lot size', () => {
    expectDenied('qtyOnLot', aLimitOrder({ qty: D('1.0005') }), aRiskView());
  });
  it('denies a fractional share of a US equity whose spec has a fractional lot, as PLACE_ORDER carries whole shares only', () => {
    const aapl = anInstrument('US_EQUITY_AAPL', {
      tickSize: D('0.01'),
      lotSize: D('0.01'),
      minSize: D('0.01'),
      minNotional: D('0'),
      settleAsset: 'USD',
    });
    const view = aRiskView();
    view.instruments.set(aapl.sym, aapl);
    view.references.set(aapl.sym, 100);
    const half = aMarketOrder({ sym: aapl.sym, qty: D('0.5'), timeInForce: 'FAK' });
    expect(expectDenied('qtyOnLot', half, view)).toBe(
      'placeOrder ref-1: qty 0.5 is not a whole number of shares: PLACE_ORDER (US equities) carries whole shares only',
    );
    expectApproved(aMarketOrder({ sym: aapl.sym, qty: D('2'), timeInForce: 'FAK' }), view);
  });
  it('passes a quantity on the lot size', () => {
    expectApproved(aLimitOrder({ qty: D('1.005') }), aRiskView());
  });

  it('denies a quantity of zero as below minSize', () => {
    expectDenied('minSize', aLimitOrder({ qty: D('0') }), aRiskView());
  });
  it('denies a quantity of zero even when the instrument has no minSize', () => {
    const view = aRiskView();
    view.instruments.set('BINANCE_PERP_BTC_USDT', anInstrument('BINANCE_PERP_BTC_USDT', { minSize: D('0') }));
    expectDenied('minSize', aLimitOrder({ qty: D('0') }), view);
  });
  it('passes exactly minSize when the notional is enough', () => {
    const view = aRiskView();
    expectApproved(aLimitOrder({ qty: D('0.001'), price: D('10000') }), view);
  });

  it('denies a limit order over maxLimitSize and a market order over maxMarketSize', () => {
    expectDenied('maxSize', aLimitOrder({ qty: D('1000.001') }), aRiskView());
    const reason = expectDenied('maxSize', aMarketOrder({ qty: D('101') }), aRiskView());
    expect(reason).toContain('maxMarketSize 100');
  });
  it('passes orders at the size limits', () => {
    expectApproved(aLimitOrder({ qty: D('1000') }), aRiskView());
    expectApproved(aMarketOrder({ qty: D('100') }), aRiskView());
  });

  it('denies an order below minNotional (market orders valued at the reference price)', () => {
    expectDenied('minNotional', aLimitOrder({ qty: D('0.04'), price: D('100') }), aRiskView());
    expectDenied('minNotional', aMarketOrder({ qty: D('0.04') }), aRiskView());
  });
  it('passes a market order that only reduces the position however small its notional: the venue takes it (reduce-only or not)', () => {
    const view = aRiskView();
    view.setPosition('BINANCE_PERP_BTC_USDT', '0.04');
    expectApproved(aMarketOrder({ side: 'SELL', qty: D('0.04'), reduceOnly: true }), view);
    expectApproved(aMarketOrder({ side: 'SELL', qty: D('0.03') }), view);
  });
  it('still denies a small market order that opens or flips, and a small reducing limit order (the venue refuses those)', () => {
    const view = aRiskView();
    view.setPosition('BINANCE_PERP_BTC_USDT', '0.04');
    expectDenied('minNotional', aMarketOrder({ side: 'SELL', qty: D('0.045') }), view);
    expectDenied('minNotional', aMarketOrder({ side: 'BUY', qty: D('0.04') }), view);
    expectDenied(
      'minNotional',
      aLimitOrder({ side: 'SELL', qty: D('0.04'), price: D('100'), reduceOnly: true }),
      view,
    );
  });
  it('passes an order at minNotional', () => {
    expectApproved(aLimitOrder({ qty: D('0.05'), price: D('100') }), aRiskView());
  });
});

describe('quote-sized market orders (quoteOrderQty set, qty 0; reference price 100)', () => {
  const byQuote = (quote: string) => aMarketOrder({ qty: D('0'), quoteOrderQty: D(quote) });

  it('passes a quote amount that buys at least minSize and minNotional at the reference price', () => {
    expectApproved(byQuote('50'), aRiskView());
  });
  it('denies a quote amount below minNotional, judged on the quote amount itself', () => {
    const reason = expectDenied('minNotional', byQuote('4.99'), aRiskView());
    expect(reason).toContain('notional 4.99');
  });
  it('denies a quote amount that buys less than minSize at the reference price', () => {
    const view = aRiskView();
    view.instruments.set('BINANCE_PERP_BTC_USDT', anInstrument('BINANCE_PERP_BTC_USDT', { minSize: D('1') }));
    const reason = expectDenied('minSize', byQuote('50'), view);
    expect(reason).toContain('quoteOrderQty 50');
  });
  it('denies a quote amount that buys more than maxMarketSize at the reference price', () => {
    expectDenied('maxSize', byQuote('10001'), aRiskView());
  });
  it('leaves the size to the venue while no reference price is known', () => {
    const view = aRiskView();
    view.references.clear();
    expectApproved(byQuote('50'), view);
  });
  it('denies a quote amount of zero', () => {
    expectDenied('minSize', byQuote('0'), aRiskView());
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
          // A market order's notional is at the reference number's Decimal as the gate takes a
          // computed price (decimalOfComputed: 15 significant digits).
          const at = type === 'limit' ? price : decimalOfComputed(price.toNumber());
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

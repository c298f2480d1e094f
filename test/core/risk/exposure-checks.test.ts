import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { maxPositionCheck, type RiskLimits } from '../../../core/risk/index.ts';
import { aLimitOrder, aMarketOrder } from '../../kit/intent-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

describe('exposure limits', () => {
  describe('maxNotional', () => {
    it('denies an order over maxNotionalPerOrder and tells the strategy why', () => {
      const reason = expectDenied('maxNotional', aLimitOrder({ qty: D('11') }), aRiskView(), {
        limits: { maxNotionalPerOrder: '1000' },
      });
      expect(reason).toBe("placeOrder ref-1: notional 1100 is over the portfolio's maxNotionalPerOrder 1000");
    });
    it("applies the strategy's own stricter limit as well", () => {
      const reason = expectDenied('maxNotional', aLimitOrder({ qty: D('6') }), aRiskView(), {
        limits: { maxNotionalPerOrder: '1000' },
        strategies: { s1: { maxNotionalPerOrder: 500 } },
      });
      expect(reason).toContain('strategy s1');
    });
    it('denies a market order when no reference price bounds its notional', () => {
      const view = aRiskView();
      view.references.clear();
      expectDenied('maxNotional', aMarketOrder(), view, { limits: { maxNotionalPerOrder: '1000' } });
    });
    it('values a market order at the quote mid itself, not the float tail of (bid + ask) / 2', () => {
      const view = aRiskView();
      view.references.set(BTC, (94999.2 + 94999.4) / 2);
      const reason = expectDenied('maxNotional', aMarketOrder({ qty: D('0.06') }), view, {
        limits: { maxNotionalPerOrder: '5000' },
      });
      expect(reason).toBe(
        "placeOrder ref-1: notional 5699.958 is over the portfolio's maxNotionalPerOrder 5000",
      );
    });
    it('passes an order at the limit', () => {
      expectApproved(aLimitOrder({ qty: D('10') }), aRiskView(), { limits: { maxNotionalPerOrder: '1000' } });
    });
    it('bounds a quote-sized market order by its quote amount', () => {
      const byQuote = (quote: string) => aMarketOrder({ qty: D('0'), quoteOrderQty: D(quote) });
      const limits = { limits: { maxNotionalPerOrder: '1000' } };
      expect(expectDenied('maxNotional', byQuote('1000.5'), aRiskView(), limits)).toContain(
        'notional 1000.5',
      );
      expectApproved(byQuote('1000'), aRiskView(), limits);
    });
  });

  describe('maxPosition', () => {
    it('counts a quote-sized market order at quoteOrderQty / reference price, and denies it with no reference', () => {
      const view = aRiskView();
      view.setPosition(BTC, '4');
      const byQuote = (quote: string) => aMarketOrder({ qty: D('0'), quoteOrderQty: D(quote) });
      const limits = { limits: { maxPositionQty: '5' } };
      expectDenied('maxPosition', byQuote('200'), view, limits);
      expectApproved(byQuote('100'), view, limits);
      view.references.clear();
      expectDenied('maxPosition', byQuote('100'), view, limits);
    });
    it('denies an order that would take the position over maxPositionQty', () => {
      const view = aRiskView();
      view.setPosition(BTC, '4');
      expectDenied('maxPosition', aLimitOrder({ qty: D('2') }), view, { limits: { maxPositionQty: '5' } });
    });
    it('counts same-side open orders as if filled', () => {
      const view = aRiskView();
      view.orders = [{ strategyId: 's1', order: anOrder({ orderQty: D('3'), clientOrderId: 'x' }) }];
      expectDenied('maxPosition', aLimitOrder({ qty: D('3') }), view, { limits: { maxPositionQty: '5' } });
    });
    it('counts a modification of a partly filled order by what it leaves unfilled, not its whole qty', () => {
      // A bid of 1 filled 0.6 (the position): modified to 1 again at a new price, 0.4 can still fill.
      const view = aRiskView();
      view.setPosition(BTC, '0.6');
      const partly = anOrder({ orderQty: D('1'), executedQty: D('0.6'), clientOrderId: 'x' });
      view.orders = [{ strategyId: 's1', order: { ...partly, orderState: 'PARTIALLY_FILLED' } }];
      const modify = { kind: 'modifyOrder', ref: 'm', target: 'x', sym: BTC, price: D('99') } as const;
      expectApproved(modify, view, { limits: { maxPositionQty: '1' } });
      expectDenied('maxPosition', { ...modify, qty: D('1.5') }, view, { limits: { maxPositionQty: '1.4' } });
      expectApproved({ ...modify, qty: D('1.5') }, view, { limits: { maxPositionQty: '1.5' } });
    });
    it('uses a per-sym override', () => {
      expectDenied('maxPosition', aLimitOrder({ qty: D('2') }), aRiskView(), {
        limits: { maxPositionQty: '5', maxPositionQtyBySym: { [BTC]: '1' } },
      });
    });
    it('decides in exact decimals at the limit, where a float sum would round the wrong way', () => {
      // As doubles 0.7 + 0.1 is 0.7999999999999999, below 0.8, which is the double nearest to the limit.
      const view = aRiskView();
      view.orders = [{ strategyId: 's1', order: anOrder({ orderQty: D('0.7'), clientOrderId: 'x' }) }];
      const intent = aLimitOrder({ qty: D('0.1') });
      expectDenied('maxPosition', intent, view, { limits: { maxPositionQty: '0.79999999999999999999' } });
      expectApproved(intent, view, { limits: { maxPositionQty: '0.8' } });
    });
    it('bounds the rounding by the sizes of the terms, so terms that cancel out are still decided exactly', () => {
      // Reachable only with minSize disabled: a negative qty against an enormous open order.
      const view = aRiskView();
      view.orders = [
        { strategyId: 's1', order: anOrder({ orderQty: D('100000000000000000'), clientOrderId: 'x' }) },
      ];
      const intent = aLimitOrder({ qty: D('-99999999999999998.5') });
      const limits: RiskLimits = { maxPositionQty: D('1') };
      const denial = maxPositionCheck.run({ strategyId: 's1', intent, view, limits, scope: 'portfolio' });
      expect(denial?.reason).toContain('position would reach 1.5');
    });
    it('matches the exact rule |position + same-side open orders + order| <= limit for any book', () => {
      const qty = fc.integer({ min: 1, max: 5_000 }).map((lots) => D(lots).div(1000));
      const open = fc.record({
        qty,
        filledShare: fc.constantFrom(0, 0.5),
        side: fc.constantFrom('BUY' as const, 'SELL' as const),
        mine: fc.boolean(),
      });
      fc.assert(
        fc.property(
          fc.integer({ min: -5_000, max: 5_000 }),
          fc.array(open, { maxLength: 12 }),
          qty,
          fc.constantFrom('BUY' as const, 'SELL' as const),
          fc.integer({ min: 1, max: 20_000 }),
          fc.constantFrom('portfolio' as const, 'strategy' as const),
          (positionLots, book, orderQty, side, maxLots, scope) => {
            const view = aRiskView();
            view.setPosition(BTC, D(positionLots).div(1000).toFixed());
            view.orders = book.map((o, i) => ({
              strategyId: o.mine ? 's1' : 'other',
              order: anOrder({
                clientOrderId: `o${i}`,
                side: o.side,
                orderQty: o.qty,
                executedQty: o.qty.mul(o.filledShare).toDecimalPlaces(3),
              }),
            }));
            const max = D(maxLots).div(1000);
            const intent = aLimitOrder({ side, qty: orderQty });
            const limits: RiskLimits = { maxPositionQty: max };
            const denial = maxPositionCheck.run({ strategyId: 's1', intent, view, limits, scope });
            const position = view.positionQty(BTC, 'NONE');
            let pending = D(0);
            for (const { strategyId, order } of view.orders) {
              if (order.side === side && (scope === 'portfolio' || strategyId === 's1'))
                pending = pending.add(order.orderQty.sub(order.executedQty));
            }
            const added = pending.add(orderQty);
            // Reducing: what the position has left after the counted same-side orders covers the order.
            const reducing =
              !position.isZero() && (side === 'BUY') !== position.gt(0) && added.lte(position.abs());
            const projected = (side === 'BUY' ? position.add(added) : position.sub(added)).abs();
            expect(denial === undefined).toBe(reducing || projected.lte(max));
          },
        ),
        { numRuns: 500 },
      );
    });
    it('passes an order within the limit and any reducing order', () => {
      const view = aRiskView();
      view.setPosition(BTC, '4');
      expectApproved(aLimitOrder({ qty: D('1') }), view, { limits: { maxPositionQty: '5' } });
      view.setPosition(BTC, '9');
      expectApproved(aLimitOrder({ side: 'SELL', qty: D('2') }), view, { limits: { maxPositionQty: '5' } });
    });
  });

  describe('maxGrossExposure', () => {
    it('denies an order that would take gross exposure over the limit', () => {
      const view = aRiskView();
      view.gross = D('9500');
      const reason = expectDenied('maxGrossExposure', aLimitOrder({ qty: D('6') }), view, {
        limits: { maxGrossExposure: '10000' },
      });
      expect(reason).toBe(
        "placeOrder ref-1: gross exposure would reach 10100 (positions 9500, with this order and every strategy's open orders), over the portfolio's maxGrossExposure 10000",
      );
    });
    it("says a strategy's limit counted the positions of the whole account", () => {
      const view = aRiskView();
      view.gross = D('9500');
      const reason = expectDenied('maxGrossExposure', aLimitOrder({ qty: D('6') }), view, {
        strategies: { s1: { maxGrossExposure: 10000 } },
      });
      expect(reason).toBe(
        "placeOrder ref-1: gross exposure would reach 10100 (positions 9500 account-wide, on every sym and of every strategy, with this order and strategy s1's open orders), over strategy s1's maxGrossExposure 10000",
      );
    });
    it('denies when the state cannot report gross exposure', () => {
      const view = aRiskView();
      delete view.grossExposure;
      expectDenied('maxGrossExposure', aLimitOrder(), view, { limits: { maxGrossExposure: '10000' } });
    });
    it('passes within the limit', () => {
      const view = aRiskView();
      view.gross = D('9500');
      expectApproved(aLimitOrder({ qty: D('5') }), view, { limits: { maxGrossExposure: '10000' } });
    });
  });
});

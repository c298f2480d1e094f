import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, type TpSl } from '../../../core/model/index.ts';
import { priceBandCheck, RiskGate } from '../../../core/risk/index.ts';
import { anAlgoOrder } from '../../kit/algo-order-builders.ts';
import { aLimitOrder, aSellStop, from } from '../../kit/intent-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';

describe('order limits', () => {
  describe('maxOpenOrders', () => {
    it('denies a new order when the strategy already has maxOpenOrders open', () => {
      const view = aRiskView();
      view.orders = [
        { strategyId: 's1', order: anOrder({ clientOrderId: 'a' }) },
        { strategyId: 's1', order: anOrder({ clientOrderId: 'b' }) },
      ];
      const reason = expectDenied('maxOpenOrders', aLimitOrder(), view, {
        strategies: { s1: { maxOpenOrders: 2 } },
      });
      expect(reason).toContain('strategy s1 has 2 open orders');
    });
    it('counts every strategy against the portfolio limit', () => {
      const view = aRiskView();
      view.orders = [{ strategyId: 'other', order: anOrder({ clientOrderId: 'a' }) }];
      expectDenied('maxOpenOrders', aLimitOrder(), view, { limits: { maxOpenOrders: 1 } });
    });
    it('counts algo orders not triggered yet and those not answered yet, and bounds placeAlgoOrder too', () => {
      const view = aRiskView();
      view.orders = [{ strategyId: 's1', order: anOrder({ clientOrderId: 'a' }) }];
      view.algosInFlight = ['s1'];
      const limits = { strategies: { s1: { maxOpenOrders: 2 } } };
      const reason = expectDenied('maxOpenOrders', aLimitOrder(), view, limits);
      expect(reason).toContain('strategy s1 has 2 open orders (1 of them algo orders)');
      expectDenied('maxOpenOrders', aSellStop(), view, limits);
      view.algosInFlight = ['other'];
      expectApproved(aSellStop(), view, limits);
    });
    it('counts the trailing stops Keel holds, a trailing stop being placed among the orders', () => {
      const view = aRiskView();
      view.trailingStops = ['s1', 's1'];
      const limits = { strategies: { s1: { maxOpenOrders: 2 } } };
      const reason = expectDenied('maxOpenOrders', aLimitOrder(), view, limits);
      expect(reason).toContain('strategy s1 has 2 open orders (of them: trailing stops held by Keel 2)');
      view.trailingStops = ['s1', 'other'];
      expectApproved(aLimitOrder(), view, limits);
      expectDenied('maxOpenOrders', aLimitOrder(), view, { limits: { maxOpenOrders: 2 } });
    });
    it("passes when only other strategies' orders are open", () => {
      const view = aRiskView();
      view.orders = [{ strategyId: 'other', order: anOrder({ clientOrderId: 'a' }) }];
      expectApproved(aLimitOrder(), view, { strategies: { s1: { maxOpenOrders: 1 } } });
    });
  });

  describe('priceBand', () => {
    it('denies a fat-finger limit price outside the band around the reference', () => {
      const reason = expectDenied('priceBand', aLimitOrder({ price: D('110') }), aRiskView(), {
        limits: { priceBand: 0.05 },
      });
      expect(reason).toContain('10.00 % from the reference 100');
    });
    it('passes a price inside the band', () => {
      expectApproved(aLimitOrder({ price: D('104.9') }), aRiskView(), { limits: { priceBand: 0.05 } });
    });
    it('passes a price exactly at the edge of the band (the largest distance allowed), either side', () => {
      for (const price of ['105', '95'])
        expectApproved(aLimitOrder({ price: D(price) }), aRiskView(), { limits: { priceBand: 0.05 } });
    });
    it('judges a price at or a hair beyond the band edge on its decimal distance, not a float one', () => {
      // 0.33 from 0.3 is exactly 10 %, which doubles compute as 0.10000000000000009.
      fc.assert(
        fc.property(
          fc.constantFrom('0.3', '0.7', '19.99', '100', '0.07', '43210.5'),
          fc.constantFrom(0.1, 0.05, 0.003, 0.25),
          fc.boolean(),
          fc.integer({ min: -2, max: 2 }),
          (reference, priceBand, above, tweak) => {
            const view = aRiskView();
            view.references.set('BINANCE_PERP_BTC_USDT', Number(reference));
            // the edge above or below the reference, then on it or up to two 1e-12 steps either side
            const edge = D(reference).mul(above ? D(1).plus(priceBand) : D(1).minus(priceBand));
            const price = edge.plus(D(tweak).mul('1e-12'));
            const denial = priceBandCheck.run({
              strategyId: 's1',
              intent: aLimitOrder({ price }),
              view,
              limits: { priceBand },
              scope: 'portfolio',
            });
            const inside = price.minus(reference).abs().lte(D(reference).mul(priceBand));
            expect(denial === undefined).toBe(inside);
          },
        ),
      );
    });
    it('does not judge a modify that keeps the price on that price: a resting order the market left can still be shrunk', () => {
      const view = aRiskView();
      view.orders = [
        { strategyId: 's1', order: anOrder({ clientOrderId: 'a', orderQty: D('2'), limitPrice: D('90') }) },
      ];
      const limits = { limits: { priceBand: 0.05 } };
      expectApproved(
        { kind: 'modifyOrder', ref: 'm-1', target: 'a', sym: 'BINANCE_PERP_BTC_USDT', qty: D('1') },
        view,
        limits,
      );
      expectDenied(
        'priceBand',
        { kind: 'modifyOrder', ref: 'm-2', target: 'a', sym: 'BINANCE_PERP_BTC_USDT', price: D('90') },
        view,
        limits,
      );
    });

    describe('trigger prices and the limit prices that go with them', () => {
      // Reference 100, band 5 %.
      const limits = { limits: { priceBand: 0.05 } };
      /** A stop-loss of a long, 0.1 % past its trigger, as an attachment of a limit BUY at 100. */
      const slOf = (trigger: string, price: string): TpSl => ({
        triggerPrice: D(trigger),
        triggerType: 'LastPrice',
        price: D(price),
      });

      it("judges a stop-limit algo order's limit against its trigger, not against the reference", () => {
        // Limit 94.9 is 5.1 % from the reference but 1.15 % from its trigger 96.
        expectApproved(aSellStop({ triggerPrice: D('96'), price: D('94.9') }), aRiskView(), limits);
        const reason = expectDenied(
          'priceBand',
          aSellStop({ triggerPrice: D('96'), price: D('90') }),
          aRiskView(),
          limits,
        );
        expect(reason).toBe(
          'placeAlgoOrder sl: price 90 is 6.25 % from its trigger price 96, outside the 5.00 % band',
        );
      });

      it('judges a trigger price against the reference: a GTE BUY trigger 50 % above it is a fat finger', () => {
        const fat = aSellStop({
          side: 'BUY',
          conditionType: 'GTE',
          triggerPrice: D('150'),
          reduceOnly: false,
        });
        const reason = expectDenied('priceBand', fat, aRiskView(), limits);
        expect(reason).toBe(
          'placeAlgoOrder sl: triggerPrice 150 is 50.00 % from the reference 100, outside the 5.00 % band',
        );
      });

      it("leaves an exit's trigger to the strategy and judges its limit against it", () => {
        // A protective stop 7 % away under a 5 % band is where the strategy cuts its loss; an exit
        // can only take risk off, so its trigger is no fat finger the band must catch.
        expectApproved(aLimitOrder({ sl: slOf('96', '94.9') }), aRiskView(), limits);
        expectApproved(aLimitOrder({ sl: slOf('93', '92.9') }), aRiskView(), limits);
        expectApproved(aSellStop({ triggerPrice: D('93'), price: D('92.9') }), aRiskView(), limits);
        const tp = { ...slOf('104', '98'), triggerType: 'MarkPrice' } as const;
        expect(expectDenied('priceBand', aLimitOrder({ tp }), aRiskView(), limits)).toContain(
          'tp price 98 is 5.77 % from its trigger price 104',
        );
      });

      it('judges a replacement that moves the trigger with the limit price it keeps', () => {
        const view = aRiskView();
        view.algoOrders = [
          { strategyId: 's1', algo: anAlgoOrder({ triggerPrice: D('96'), price: D('95') }) },
        ];
        const replace = {
          kind: 'replaceAlgoOrder',
          ref: 'r',
          target: 'algo-1',
          sym: 'BINANCE_PERP_BTC_USDT',
        } as const;
        expectApproved({ ...replace, qty: D('0.5') }, view, limits);
        expectApproved({ ...replace, triggerPrice: D('97') }, view, limits);
        expectDenied('priceBand', { ...replace, triggerPrice: D('90') }, view, limits);
        expectDenied('priceBand', { ...replace, price: D('85') }, view, limits);
      });

      // Triggers under the entry at 101, so the stop-loss is on its side (tpSlSide).
      it('property: an exit gets the same verdict as an algo order and as an attachment', () => {
        fc.assert(
          fc.property(fc.integer({ min: 850, max: 1005 }), fc.integer({ min: 850, max: 1150 }), (t, p) => {
            const trigger = D(t).div(10);
            const price = D(p).div(10);
            const gate = new RiskGate(limits);
            const algo = gate.evaluate(
              from(aSellStop({ triggerPrice: trigger, price, qty: D('0.1') })),
              aRiskView(),
            );
            const sl = { triggerPrice: trigger, triggerType: 'LastPrice', price } as const;
            const attached = gate.evaluate(
              from(aLimitOrder({ price: D('101'), qty: D('0.1'), sl })),
              aRiskView(),
            );
            const verdict = (d: typeof algo) => (d.kind === 'denied' ? d.check === 'priceBand' : false);
            expect(verdict(algo)).toBe(verdict(attached));
          }),
        );
      });
    });
  });
});

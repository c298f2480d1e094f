import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { aLimitOrder, aMarketOrder } from '../../kit/intent-builders.ts';
import { BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';
import { aBar, aQuote } from '../../kit/sim-builders.ts';
import { aStrategyRig } from '../../kit/strategy-rig.ts';

/** An open quote-sized BUY market order the venue has not sized yet (orderQty 0). */
const unsizedQuoteOrder = (quote: string, more = {}) =>
  anOrder({
    clientOrderId: 'q',
    orderType: 'MARKET',
    timeInForce: 'IOC',
    orderQty: D(0),
    limitPrice: D(0),
    quoteOrderQty: D(quote),
    ...more,
  });

describe('maxPosition counts an open quote-sized order not sized yet at the qty its amount buys', () => {
  const limits = { limits: { maxPositionQty: '10' } };

  it('an open 800 USDT order at reference 100 counts as 8: a new qty 3 is denied, qty 2 passes', () => {
    const view = aRiskView();
    view.orders = [{ strategyId: 's1', order: unsizedQuoteOrder('800') }];
    const reason = expectDenied('maxPosition', aLimitOrder({ qty: D('3') }), view, limits);
    expect(reason).toContain('position would reach 11 with open orders');
    expectApproved(aLimitOrder({ qty: D('2') }), view, limits);
  });

  it('an open 800 USDT order counts against a new quote-sized order too', () => {
    const view = aRiskView();
    view.orders = [{ strategyId: 's1', order: unsizedQuoteOrder('800') }];
    const byQuote = (quote: string) => aMarketOrder({ qty: D('0'), quoteOrderQty: D(quote) });
    expectDenied('maxPosition', byQuote('800'), view, limits);
    expectApproved(byQuote('200'), view, limits);
  });

  it('only the unspent amount counts once part of it filled (quoteOrderQty - executedAmount)', () => {
    const view = aRiskView();
    view.setPosition(BTC, '5');
    const partly = unsizedQuoteOrder('800', { executedQty: D('5'), executedAmount: D('500') });
    view.orders = [{ strategyId: 's1', order: partly }];
    // 5 held + 3 still to buy: 2 more fit, 3 do not.
    expectApproved(aLimitOrder({ qty: D('2') }), view, limits);
    expectDenied('maxPosition', aLimitOrder({ qty: D('3') }), view, limits);
  });

  it('a BUY that still reduces a short after the open quote-sized BUY passes, one that goes past is checked', () => {
    const view = aRiskView();
    view.setPosition(BTC, '-10');
    view.orders = [{ strategyId: 's1', order: unsizedQuoteOrder('500') }];
    // Short 10: the open buy of ~5 and a new buy of 5 together bring it to 0.
    expectApproved(aLimitOrder({ side: 'BUY', qty: D('5') }), view, { limits: { maxPositionQty: '1' } });
    expectDenied('maxPosition', aLimitOrder({ side: 'BUY', qty: D('7') }), view, {
      limits: { maxPositionQty: '1' },
    });
  });
});

describe('unsized quote orders in flight and the risk gate maxPositionQty (backtest)', () => {
  for (const how of ['qty', 'quote'] as const) {
    it(`${how}: of two orders for 8 in flight under maxPositionQty 10, the second is denied`, async () => {
      let step = 0;
      const s = defineStrategy({
        name: 'probe',
        params: z.object({}),
        onQuote: (ctx) => {
          step++;
          if (step > 2) return undefined;
          return how === 'qty'
            ? ctx.order.market({ sym: BTC, side: 'BUY', qty: 8 })
            : ctx.order.market({ sym: BTC, side: 'BUY', quoteQty: 800 });
        },
      });
      const rig = await aStrategyRig([{ id: 's', strategy: s, params: {} }], {
        latencyMs: 50,
        cash: 1_000_000,
        risk: { limits: { maxPositionQty: '10' } },
      });
      rig.push(aQuote(1000, 99.9, 100, 100, 100));
      rig.push(aQuote(1010, 99.9, 100, 100, 100));
      rig.push(aQuote(2000, 99.9, 100, 100, 100));
      expect(rig.denials.map((d) => d.check)).toEqual(['maxPosition']);
      expect((await rig.venueQty()).toFixed()).toBe('8');
    });
  }
});

describe('bar backtest, two strategies under one portfolio maxPositionQty', () => {
  const mk = (name: string, how: 'qty' | 'quote') =>
    defineStrategy({
      name,
      params: z.object({}),
      onStart: (ctx) => ctx.watchBars(BTC, '1m'),
      onBar: (ctx) => {
        if (ctx.netQty(BTC).gt(0) || ctx.openOrders().length > 0) return undefined;
        return how === 'qty'
          ? ctx.order.market({ sym: BTC, side: 'BUY', qty: 8 })
          : ctx.order.market({ sym: BTC, side: 'BUY', quoteQty: 800 });
      },
    });
  for (const how of ['qty', 'quote'] as const) {
    it(`${how}: the portfolio never holds more than maxPositionQty 10`, async () => {
      const rig = await aStrategyRig(
        [
          { id: 'a', strategy: mk('a', how), params: {} },
          { id: 'b', strategy: mk('b', how), params: {} },
        ],
        { fillModel: 'bar', cash: 1_000_000, risk: { limits: { maxPositionQty: '10' } } },
      );
      rig.push(aBar(60_000, 100, 100, 100, 100));
      rig.push(aBar(120_000, 100, 100, 100, 100));
      rig.push(aBar(180_000, 100, 100, 100, 100));
      expect((await rig.venueQty()).toFixed()).toBe('8');
    });
  }
});

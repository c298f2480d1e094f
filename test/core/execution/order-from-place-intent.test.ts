import { describe, expect, it } from 'vitest';
import { orderFromPlaceIntent } from '../../../core/execution/index.ts';
import { D } from '../../../core/model/index.ts';
import { aLimitOrder, aMarketOrder } from '../../kit/intent-builders.ts';

describe('order from a place-order intent', () => {
  it('is PENDING_NEW with no venue id, nothing executed and the intent fields, by default', () => {
    const order = orderFromPlaceIntent(aLimitOrder({ ref: 'c-9', qty: D('2'), price: D('101.5') }), {
      portfolioId: 'P1',
      at: 1234,
    });
    expect(order).toMatchObject({
      orderId: '',
      clientOrderId: 'c-9',
      portfolioId: 'P1',
      sym: 'BINANCE_PERP_BTC_USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      orderState: 'PENDING_NEW',
      feeCoin: '',
      reduceOnly: false,
      positionSide: 'NONE',
      createAt: 1234,
      updateAt: 1234,
    });
    expect(order.orderQty.toString()).toBe('2');
    expect(order.limitPrice.toString()).toBe('101.5');
    for (const zero of [order.executedQty, order.executedAmount, order.executedAvgPrice, order.fee]) {
      expect(zero.isZero()).toBe(true);
    }
  });

  it('prices a market intent at zero', () => {
    expect(orderFromPlaceIntent(aMarketOrder(), { portfolioId: '', at: 0 }).limitPrice.isZero()).toBe(true);
  });

  it('leaves the optional fields the intent leaves out absent, and carries those it sets', () => {
    const bare = orderFromPlaceIntent(aLimitOrder(), { portfolioId: '', at: 0 });
    for (const key of ['tp', 'sl', 'condition', 'expiryDate', 'reason']) expect(key in bare).toBe(false);
    const tp = { triggerPrice: D('110'), triggerType: 'MarkPrice' as const, price: D('111') };
    const full = orderFromPlaceIntent(aLimitOrder({ tp, expiryDate: '2026-12-31' }), {
      portfolioId: '',
      at: 0,
    });
    expect(full.tp).toBe(tp);
    expect(full.expiryDate).toBe('2026-12-31');
  });

  it('reports the venue id, state and reason when given', () => {
    const order = orderFromPlaceIntent(aLimitOrder(), {
      portfolioId: '',
      at: 5,
      orderId: 'o-7',
      orderState: 'REJECTED',
      reason: '2011: insufficient margin',
    });
    expect(order).toMatchObject({
      orderId: 'o-7',
      orderState: 'REJECTED',
      reason: '2011: insufficient margin',
    });
  });
});

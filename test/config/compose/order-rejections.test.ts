import { describe, expect, it } from 'vitest';
import { OrderRejections } from '../../../config/compose/order-rejections.ts';
import { anOrder } from '../../kit/order-builders.ts';

const rejected = (clientOrderId: string, reason: string) =>
  anOrder({ clientOrderId, orderId: '', orderState: 'REJECTED', reason });

describe('order rejections of a session', () => {
  it('say nothing when the venue rejected no order', () => {
    const rejections = new OrderRejections();
    rejections.observe(anOrder({ clientOrderId: 'a', orderState: 'NEW' }));
    rejections.observe(anOrder({ clientOrderId: 'a', orderState: 'FILLED' }));
    expect(rejections.warning()).toBeUndefined();
  });

  it('say that every order was rejected, counting each order once, with the first reason', () => {
    const rejections = new OrderRejections();
    rejections.observe(rejected('a', 'PLACE_ORDER args.brokerClientId: is required'));
    rejections.observe(rejected('a', 'PLACE_ORDER args.brokerClientId: is required'));
    rejections.observe(rejected('b', 'something else'));
    expect(rejections.warning()).toBe(
      'the venue rejected every order placed (2 of 2), so nothing could fill; the first: BINANCE_PERP_BTC_USDT BUY a: PLACE_ORDER args.brokerClientId: is required',
    );
  });

  it('count the rejected among all orders placed when some went through', () => {
    const rejections = new OrderRejections();
    rejections.observe(anOrder({ clientOrderId: 'a', orderState: 'NEW' }));
    rejections.observe(anOrder({ clientOrderId: 'b', orderState: 'NEW' }));
    rejections.observe(rejected('c', '401023: insufficient margin'));
    expect(rejections.warning()).toBe(
      'the venue rejected 1 of the 3 orders placed; the first: BINANCE_PERP_BTC_USDT BUY c: 401023: insufficient margin',
    );
  });
});

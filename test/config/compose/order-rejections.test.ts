import { describe, expect, it } from 'vitest';
import { OrderRejections } from '../../../config/compose/order-rejections.ts';
import { anOrder } from '../../kit/order-builders.ts';

const rejected = (clientOrderId: string, reason: string) =>
  anOrder({ clientOrderId, orderId: '', orderState: 'REJECTED', reason });

describe('order rejections of a session', () => {
  it('say nothing when the venue rejected no order', () => {
    const rejections = new OrderRejections();
    const placed = anOrder({ clientOrderId: 'a', orderState: 'NEW' });
    rejections.observe(placed, undefined);
    rejections.observe(anOrder({ clientOrderId: 'a', orderState: 'FILLED' }), placed);
    expect(rejections.warning()).toBeUndefined();
  });

  it('say that every order was rejected, counting each order once, with the first reason', () => {
    const rejections = new OrderRejections();
    // The adapter's REJECTED, then the venue's own of the same order (a Keel-synthesized one replaced).
    const byAdapter = rejected('a', 'PLACE_ORDER args.brokerClientId: is required');
    rejections.observe(byAdapter, undefined);
    rejections.observe({ ...byAdapter, orderId: 'SIM-1' }, byAdapter);
    rejections.observe(rejected('b', 'something else'), undefined);
    expect(rejections.warning()).toBe(
      'the venue rejected every order placed (2 of 2), so nothing could fill; the first: BINANCE_PERP_BTC_USDT BUY a: PLACE_ORDER args.brokerClientId: is required',
    );
  });

  it('count the rejected among all orders placed when some went through', () => {
    const rejections = new OrderRejections();
    rejections.observe(anOrder({ clientOrderId: 'a', orderState: 'NEW' }), undefined);
    rejections.observe(anOrder({ clientOrderId: 'b', orderState: 'NEW' }), undefined);
    rejections.observe(rejected('c', '401023: insufficient margin'), undefined);
    expect(rejections.warning()).toBe(
      'the venue rejected 1 of the 3 orders placed; the first: BINANCE_PERP_BTC_USDT BUY c: 401023: insufficient margin',
    );
  });

  it('count out the open orders the session found on the venue before it started trading', () => {
    const rejections = new OrderRejections();
    rejections.observe(anOrder({ clientOrderId: 'found-1', orderState: 'OPEN' }), undefined);
    rejections.observe(anOrder({ clientOrderId: 'found-2', orderState: 'OPEN' }), undefined);
    rejections.startTrading();
    rejections.observe(anOrder({ clientOrderId: 'a', orderState: 'NEW' }), undefined);
    rejections.observe(rejected('b', '401023: insufficient margin'), undefined);
    expect(rejections.warning()).toBe(
      'the venue rejected 1 of the 2 orders placed; the first: BINANCE_PERP_BTC_USDT BUY b: 401023: insufficient margin',
    );
  });

  it('count the orders Keel ended as rejected itself (code keel) apart from the venue’s rejections', () => {
    const rejections = new OrderRejections();
    for (const ref of ['a', 'b', 'c'])
      rejections.observe(anOrder({ clientOrderId: ref, orderState: 'NEW' }), undefined);
    rejections.observe(rejected('d', '401023: insufficient margin'), undefined);
    const unacked = {
      ...rejected('e', 'no ack, and the venue still had no order with clientOrderId e (synthesized by Keel)'),
      synthesized: true,
    };
    rejections.observe(unacked, undefined);
    expect(rejections.warning()).toBe(
      'the venue rejected 1 of the 5 orders placed; the first: BINANCE_PERP_BTC_USDT BUY d: 401023: insufficient margin',
    );
    expect(rejections.keelWarning()).toBe(
      'Keel ended 1 of the 5 orders placed as rejected itself (code keel: not sent, or never acknowledged), not the venue; the first: BINANCE_PERP_BTC_USDT BUY e: no ack, and the venue still had no order with clientOrderId e (synthesized by Keel)',
    );
  });

  it('say which order Keel ended as never acknowledged reached the venue after all', () => {
    const rejections = new OrderRejections();
    const unacked = {
      ...rejected('e', 'no ack, and the venue still had no order with clientOrderId e (synthesized by Keel)'),
      synthesized: true,
    };
    rejections.observe(unacked, undefined);
    expect(rejections.observe(anOrder({ clientOrderId: 'e', orderState: 'NEW' }), unacked)).toBe(false);
    expect(rejections.keelWarning()).toBe(
      'Keel ended 1 of the 1 orders placed as rejected itself (code keel: not sent, or never acknowledged), not the venue; the first: BINANCE_PERP_BTC_USDT BUY e: no ack, and the venue still had no order with clientOrderId e (synthesized by Keel); 1 of them reached the venue after all (the first: e): the result holds it as the venue last reported it',
    );
  });

  it('count refused borrows and repays apart from orders, with the first reason', () => {
    const rejections = new OrderRejections();
    const refused = (ref: string, intentKind: 'borrow' | 'repay' | 'cancelOrder', message: string) =>
      rejections.observeCommand({
        kind: 'commandRejected',
        ts: 1,
        recvTs: 1,
        ref,
        intentKind,
        code: 406014,
        message,
      });
    expect(rejections.loanWarning()).toBeUndefined();
    refused('x', 'cancelOrder', '401018 order not found');
    expect(rejections.loanWarning()).toBeUndefined();
    refused('c-1', 'borrow', '406014 the asset cannot be borrowed on this exchange');
    refused('c-2', 'repay', '406022 the repay amount exceeds the outstanding principal');
    expect(rejections.loanWarning()).toBe(
      'the venue refused 2 borrow or repay commands; the first: borrow c-1: 406014 the asset cannot be borrowed on this exchange',
    );
    expect(rejections.warning()).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { orderView, type SimOrder } from '../../../backtest/sim/sim-order.ts';
import { D } from '../../../core/model/index.ts';
import { literalControlDecisions, pretenuringDecisions } from '../../kit/allocation-site-decisions.ts';

const order: SimOrder = {
  orderId: 'SIM-O-1',
  clientOrderId: 'mm-1',
  sym: 'BINANCE_PERP_BTC_USDT',
  side: 'BUY',
  sign: 1,
  orderType: 'LIMIT',
  timeInForce: 'GTC',
  positionSide: 'NONE',
  reduceOnly: false,
  quoteQty: undefined,
  qty: D('0.01'),
  price: D('95000.1'),
  priceN: 95_000.1,
  filled: D(0),
  remainingN: 0.01,
  amount: D(0),
  avgPrice: D(0),
  fee: D(0),
  feeCoin: 'USDT',
  state: 'NEW',
  action: 'AMEND_COMPLETED',
  amendType: 'PRICE',
  extendedTrading: false,
  ignoresTradingHours: false,
  expireAt: Number.POSITIVE_INFINITY,
  queueAhead: 0,
  queueUnexplained: 0,
  crossed: false,
  working: true,
  marginAtFill: false,
  seq: 1,
  liquidation: false,
  createAt: 1_000,
  receivedAt: 1_000,
  updateAt: 2_000,
};

describe('orderView: the Orders channel view', () => {
  it('is a plain object with the fields present, in the same order as ever (times last)', () => {
    const view = orderView(order, 'P-1');
    expect(Object.getPrototypeOf(view)).toBe(Object.prototype);
    expect(Object.keys(view)).toEqual([
      'orderId',
      'clientOrderId',
      'portfolioId',
      'sym',
      'side',
      'orderType',
      'timeInForce',
      'orderState',
      'orderQty',
      'limitPrice',
      'executedQty',
      'executedAmount',
      'executedAvgPrice',
      'fee',
      'feeCoin',
      'reduceOnly',
      'positionSide',
      'action',
      'amendType',
      'createAt',
      'updateAt',
    ]);
    expect(view).toStrictEqual({
      orderId: 'SIM-O-1',
      clientOrderId: 'mm-1',
      portfolioId: 'P-1',
      sym: 'BINANCE_PERP_BTC_USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      orderState: 'NEW',
      orderQty: order.qty,
      limitPrice: order.price,
      executedQty: order.filled,
      executedAmount: order.amount,
      executedAvgPrice: order.filled,
      fee: order.fee,
      feeCoin: 'USDT',
      reduceOnly: false,
      positionSide: 'NONE',
      action: 'AMEND_COMPLETED',
      amendType: 'PRICE',
      createAt: 1_000,
      updateAt: 2_000,
    });
  });

  it('has no allocation site: views that live on do not make V8 allocate later ones in the old generation', () => {
    // A run holds its first orders' views until it writes them; a literal's site, judged by
    // those, had every later view (a requote's, dead a few events later) made in the old generation.
    const decisions = pretenuringDecisions(`
      const { orderView } = await import(repo('backtest/sim/sim-order.ts'));
      const { D } = await import(repo('core/model/index.ts'));
      const order = {
        orderId: 'O-1', clientOrderId: 'c-1', sym: 'BTC', side: 'BUY', orderType: 'LIMIT',
        timeInForce: 'GTC', positionSide: 'NONE', reduceOnly: false, qty: D(1), price: D(100),
        filled: D(0), amount: D(0), avgPrice: D(0), fee: D(0), feeCoin: 'USDT', state: 'NEW',
        action: 'PLACE', createAt: 1, updateAt: 1,
      };
      const held = [];
      for (let i = 0; i < 600_000; i++) held.push(orderView(order, 'P'));
      console.error(held.length);
    `);
    expect(decisions).toEqual([]);
    // The control: a literal held alike is judged, so the empty list above is V8 finding no site.
    expect(literalControlDecisions()).not.toEqual([]);
  }, 120_000);
});

import { describe, expect, it } from 'vitest';
import type { OrderFactoryState } from '../../../core/kernel/index.ts';
import { OrderFactory } from '../../../core/kernel/index.ts';
import type { PositionMode } from '../../../core/model/index.ts';
import { D, ZERO } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

const AAPL = 'US_EQUITY_AAPL';

function factory(mode: PositionMode = 'NET', longQty = '0'): OrderFactory {
  let n = 0;
  const specs = [anInstrument(BTC), anInstrument(AAPL, { tickSize: D('0.01'), lotSize: D('1') })];
  const state: OrderFactoryState = {
    instrument: (sym) => specs.find((s) => s.sym === sym),
    positionMode: () => mode,
    positionQty: (_sym, side) => (side === 'LONG' ? D(longQty) : ZERO),
    orderByRef: (ref) => (ref === 'o-1' ? anOrder({ clientOrderId: 'o-1', sym: BTC }) : undefined),
    algoByRef: (ref) => (ref === 'a-1' ? { sym: BTC, side: 'SELL', triggerPrice: D(95) } : undefined),
    nextRef: () => `s-${++n}`,
  };
  return new OrderFactory(state);
}

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('order factory', () => {
  it('makes a limit order with defaults: GTC, not reduce-only, NONE side in NET mode, generated ref', () => {
    expect(plain(factory().limit({ sym: BTC, side: 'BUY', qty: 0.5, price: '100.5' }))).toEqual({
      kind: 'placeOrder',
      ref: 's-1',
      sym: BTC,
      side: 'BUY',
      orderType: 'LIMIT',
      qty: '0.5',
      price: '100.5',
      timeInForce: 'GTC',
      reduceOnly: false,
      positionSide: 'NONE',
    });
  });

  it('rounds qty down to the lot and limit prices passively to the tick when asked', () => {
    const f = factory();
    const buy = f.limit({ sym: BTC, side: 'BUY', qty: 0.12345, price: 100.37, round: true });
    const sell = f.limit({ sym: BTC, side: 'SELL', qty: '0.0019', price: 100.31, round: true });
    expect([buy.qty.toFixed(), buy.price?.toFixed()]).toEqual(['0.123', '100.3']);
    expect([sell.qty.toFixed(), sell.price?.toFixed()]).toEqual(['0.001', '100.4']);
    const unrounded = f.limit({ sym: BTC, side: 'BUY', qty: 0.12345, price: 100.37 });
    expect([unrounded.qty.toFixed(), unrounded.price?.toFixed()]).toEqual(['0.12345', '100.37']);
  });

  it('asks a market order for qty or quoteQty in its type (npm test type-checks this file)', () => {
    const f = factory();
    const unsized = () =>
      // @ts-expect-error a market order given neither qty nor quoteQty
      f.market({ sym: BTC, side: 'BUY' });
    expect(typeof unsized).toBe('function');
  });

  it('makes market (by qty or quote qty), post-only, IOC, FOK and GTD orders', () => {
    const f = factory();
    expect(f.market({ sym: BTC, side: 'SELL', qty: 1 })).toMatchObject({
      orderType: 'MARKET',
      timeInForce: 'IOC',
    });
    expect(f.market({ sym: BTC, side: 'SELL', qty: 1 }).price).toBeUndefined();
    expect(f.market({ sym: BTC, side: 'BUY', quoteQty: '250' }).quoteOrderQty?.toFixed()).toBe('250');
    expect(f.postOnly({ sym: BTC, side: 'BUY', qty: 1, price: 1 }).timeInForce).toBe('GTX');
    expect(f.ioc({ sym: BTC, side: 'BUY', qty: 1, price: 1 }).timeInForce).toBe('IOC');
    expect(f.ioc({ sym: AAPL, side: 'BUY', qty: 1, price: 1 }).timeInForce).toBe('FAK');
    expect(f.fok({ sym: BTC, side: 'BUY', qty: 1, price: 1 }).timeInForce).toBe('FOK');
    expect(f.gtd({ sym: BTC, side: 'BUY', qty: 1, price: 1, expiry: '2026-03-20' })).toMatchObject({
      timeInForce: 'GTD',
      expiryDate: '2026-03-20',
    });
  });

  it('makes a US-equity market order FAK, the time in force the venue reports for it, unless told', () => {
    const f = factory();
    expect(f.market({ sym: AAPL, side: 'BUY', qty: 1 }).timeInForce).toBe('FAK');
    expect(f.market({ sym: AAPL, side: 'BUY', qty: 1, timeInForce: 'DAY' }).timeInForce).toBe('DAY');
    const trailing = f.trailingStop({ sym: AAPL, side: 'SELL', qty: 1, offset: { ticks: 5 } });
    expect(trailing.timeInForce).toBe('FAK');
  });

  it('dates a GTD expiry given as a time in New York for equities and in UTC for crypto', () => {
    const at = Date.parse('2026-03-10T02:00:00Z');
    expect(factory().gtd({ sym: AAPL, side: 'BUY', qty: 1, price: 1, expiry: at }).expiryDate).toBe(
      '2026-03-09',
    );
    expect(factory().gtd({ sym: BTC, side: 'BUY', qty: 1, price: 1, expiry: at }).expiryDate).toBe(
      '2026-03-10',
    );
  });

  it('defaults US equities to DAY, the PLACE_ORDER default', () => {
    expect(factory().limit({ sym: AAPL, side: 'BUY', qty: 10, price: 190 }).timeInForce).toBe('DAY');
  });

  it('attaches take-profit and stop-loss (market when no price)', () => {
    const order = factory().limit({
      sym: BTC,
      side: 'BUY',
      qty: 1,
      price: 100,
      tp: { triggerPrice: 110, price: 109.5 },
      sl: { triggerPrice: '95', triggerType: 'MarkPrice' },
    });
    expect(plain([order.tp, order.sl])).toEqual([
      { triggerPrice: '110', triggerType: 'LastPrice', price: '109.5' },
      { triggerPrice: '95', triggerType: 'MarkPrice', price: '0' },
    ]);
  });

  it('picks the position side in BOTH mode from side and reduce-only', () => {
    const f = factory('BOTH');
    expect(f.limit({ sym: BTC, side: 'BUY', qty: 1, price: 1 }).positionSide).toBe('LONG');
    expect(f.limit({ sym: BTC, side: 'SELL', qty: 1, price: 1 }).positionSide).toBe('SHORT');
    expect(f.limit({ sym: BTC, side: 'SELL', qty: 1, price: 1, reduceOnly: true }).positionSide).toBe('LONG');
    expect(f.limit({ sym: BTC, side: 'BUY', qty: 1, price: 1, reduceOnly: true }).positionSide).toBe('SHORT');
    expect(f.limit({ sym: BTC, side: 'BUY', qty: 1, price: 1, positionSide: 'SHORT' }).positionSide).toBe(
      'SHORT',
    );
  });

  it('makes the PLACE_ORDER conditional orders: UT/DT/SL with trigger, OCO with stop, TIME with send time', () => {
    const f = factory();
    expect(
      plain(f.conditional({ sym: AAPL, side: 'BUY', qty: 10, code: 'UT', triggerPrice: 191 }).condition),
    ).toEqual({
      code: 'UT',
      triggerPrice: '191',
    });
    const oco = f.conditional({
      sym: AAPL,
      side: 'SELL',
      qty: 10,
      price: 200,
      code: 'OCO',
      triggerPrice: 210,
      stopPrice: 180,
    });
    expect(plain(oco)).toMatchObject({
      orderType: 'LIMIT',
      price: '200',
      condition: { code: 'OCO', stopPrice: '180' },
    });
    const timed = f.conditional({
      sym: AAPL,
      side: 'BUY',
      qty: 1,
      code: 'TIME',
      sendAt: Date.parse('2026-07-01T13:30:05Z'),
    });
    expect(timed.condition).toEqual({ code: 'TIME', timeToSend: '2026-07-01 09:30:05' });
    expect(timed.orderType).toBe('MARKET');
  });

  it("rounds a stop-limit algo order's limit away from its trigger, never onto it", () => {
    const f = factory();
    const stop = (side: 'BUY' | 'SELL', triggerPrice: number, price: number) =>
      plain(
        f.algo({
          sym: BTC,
          side,
          qty: 1,
          triggerPrice,
          price,
          condition: side === 'SELL' ? 'LTE' : 'GTE',
          round: true,
        }),
      );
    expect(stop('SELL', 95, 94.91)).toMatchObject({ triggerPrice: '95', price: '94.9' });
    expect(stop('BUY', 105, 105.09)).toMatchObject({ triggerPrice: '105', price: '105.1' });
  });

  it('makes algo orders and their replace and cancel, taking the sym from the known algo order', () => {
    const f = factory();
    const algo = f.algo({
      sym: BTC,
      side: 'SELL',
      qty: 1,
      triggerPrice: 95.04,
      condition: 'LTE',
      reduceOnly: true,
      round: true,
    });
    expect(plain(algo)).toMatchObject({
      kind: 'placeAlgoOrder',
      algoOrderType: 'TRIGGER',
      conditionType: 'LTE',
      triggerType: 'LastPrice',
      triggerPrice: '95',
      price: '0',
      reduceOnly: true,
    });
    expect(plain(f.replaceAlgo('a-1', { triggerPrice: 96 }))).toMatchObject({
      kind: 'replaceAlgoOrder',
      sym: BTC,
      triggerPrice: '96',
    });
    expect(f.cancelAlgo('a-1')).toMatchObject({ kind: 'cancelAlgoOrder', target: 'a-1', sym: BTC });
    expect(f.cancelAllAlgos({ sym: BTC })).toMatchObject({ kind: 'cancelAllAlgoOrders', sym: BTC });
  });

  it("rounds a replaceAlgo's trigger to the nearest tick, qty down to the lot and limit away from its trigger when asked", () => {
    const f = factory();
    // a-1 is a SELL stop triggered at 95.
    const limitOnly = plain(f.replaceAlgo('a-1', { price: 94.91, qty: 0.12345, round: true }));
    expect(limitOnly).toMatchObject({ price: '94.9', qty: '0.123' });
    expect(limitOnly).not.toHaveProperty('triggerPrice');
    // A new trigger is what the new limit rounds away from: 96.05, above the new 96, up to 96.1.
    const both = plain(f.replaceAlgo('a-1', { triggerPrice: 96.04, price: 96.05, round: true }));
    expect(both).toMatchObject({ triggerPrice: '96', price: '96.1' });
    const exact = plain(f.replaceAlgo('a-1', { triggerPrice: 96.04, price: 94.91, qty: 0.12345 }));
    expect(exact).toMatchObject({ triggerPrice: '96.04', price: '94.91', qty: '0.12345' });
    // An algo order Keel does not know is denied whatever its amounts: they are left as written.
    const unknown = plain(f.replaceAlgo('a-9', { triggerPrice: 96.04, price: 94.91, round: true }));
    expect(unknown).toMatchObject({ sym: '', triggerPrice: '96.04', price: '94.91' });
  });

  it("rounds a modify's qty down to the lot and its price passively for the order's side when asked", () => {
    const f = factory();
    const rounded = f.modify('o-1', { qty: 0.12345, price: 100.37, round: true });
    expect([rounded.qty?.toFixed(), rounded.price?.toFixed()]).toEqual(['0.123', '100.3']);
    const exact = f.modify('o-1', { qty: 0.12345, price: 100.37 });
    expect([exact.qty?.toFixed(), exact.price?.toFixed()]).toEqual(['0.12345', '100.37']);
    const unknown = f.modify('o-9', { qty: 0.12345, price: 100.37, round: true });
    expect([unknown.qty?.toFixed(), unknown.price?.toFixed()]).toEqual(['0.12345', '100.37']);
  });

  it("rounds a tp limit price passively for the exit's side when asked (a long's SELL exit up), an sl limit away from its trigger (down)", () => {
    const buy = factory().limit({
      sym: BTC,
      side: 'BUY',
      qty: 1,
      price: 100,
      tp: { triggerPrice: 110.04, price: 109.85 },
      sl: { triggerPrice: 95.35 - 0.2, price: 95.01 },
      round: true,
    });
    expect([buy.tp?.triggerPrice.toFixed(), buy.tp?.price.toFixed()]).toEqual(['110', '109.9']);
    expect([buy.sl?.triggerPrice.toFixed(), buy.sl?.price.toFixed()]).toEqual(['95.2', '95']);
  });

  it('makes modify, cancel and cancel-many intents aimed at a known order', () => {
    const f = factory();
    expect(plain(f.modify('o-1', { price: 101 }))).toMatchObject({
      kind: 'modifyOrder',
      target: 'o-1',
      sym: BTC,
      price: '101',
    });
    expect(f.cancel('o-1')).toMatchObject({ kind: 'cancelOrder', target: 'o-1', sym: BTC });
    expect(f.cancelMany({ targets: ['o-1'] })).toMatchObject({ kind: 'cancelOrders', targets: ['o-1'] });
  });

  it('closes positions (the non-flat leg in BOTH mode), borrows, repays and switches position mode', () => {
    expect(factory().closePosition(BTC)).toMatchObject({ kind: 'closePosition', positionSide: 'NONE' });
    expect(factory('BOTH', '2').closePosition(BTC).positionSide).toBe('LONG');
    expect(factory('BOTH', '0').closePosition(BTC).positionSide).toBe('SHORT');
    expect(factory().closePositions([BTC, AAPL])).toMatchObject({
      kind: 'closePositions',
      symList: [BTC, AAPL],
    });
    expect(plain(factory().borrow({ exchange: 'BINANCE', coin: 'USDT', amount: 100 }))).toMatchObject({
      kind: 'borrow',
      amount: '100',
    });
    expect(plain(factory().repay({ exchange: 'BINANCE', coin: 'USDT', amount: '50.5' }))).toMatchObject({
      kind: 'repay',
      amount: '50.5',
    });
    expect(factory().setPositionMode('BOTH')).toMatchObject({
      kind: 'setPositionMode',
      positionMode: 'BOTH',
    });
  });

  it('keeps a NaN or infinite qty or limit price for the risk gate to deny, and refuses a string that is no decimal', () => {
    const nan = factory().limit({ sym: BTC, side: 'BUY', qty: Number.NaN, price: Number.NEGATIVE_INFINITY });
    expect([nan.qty.toFixed(), nan.price?.toFixed()]).toEqual(['NaN', '-Infinity']);
    expect(factory().modify('x', { qty: Number.NaN, price: Number.NaN, round: true }).qty?.toFixed()).toBe(
      'NaN',
    );
    expect(() => factory().limit({ sym: BTC, side: 'BUY', qty: 1, price: '1e3' })).toThrow(
      /price must be a decimal string/,
    );
  });
});

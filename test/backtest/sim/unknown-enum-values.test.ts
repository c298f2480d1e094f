import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aLimit, aMarket, anAlgo, aQuote, aSim, BTC, fillLines } from '../../kit/sim-builders.ts';

// The paper venue decodes every order body with the wire schema (core/venue/wire/order.ts) and
// answers 400001 to a side, time in force or positionSide outside the venue's values; the sim
// takes whatever string comes and reads anything but 'BUY' as a sell.
function placeOn(intent: Parameters<ReturnType<typeof aSim>['send']>[0], mode: 'NET' | 'BOTH' = 'NET') {
  const t = aSim({ positionMode: mode });
  t.sim.onMarket(aQuote(0, 100, 5, 100.1, 5));
  t.send(intent);
  t.sim.advanceTo(1);
  return {
    fills: fillLines(t),
    states: t
      .of('order')
      .map((o) => `${o.order.orderState}${o.order.reason ? ` ${o.order.reason.slice(0, 6)}` : ''}`),
  };
}

describe('sim venue: an order field outside the venue values is rejected 400001 (as the paper venue does)', () => {
  it("side 'buy' (lower case) is rejected, not filled as a SELL at the bid", () => {
    expect(placeOn(aMarket('a', 'buy' as 'BUY', '1'))).toEqual({ fills: [], states: ['REJECTED 400001'] });
  });

  it("timeInForce 'gtc' is rejected, not rested as GTC", () => {
    expect(placeOn(aLimit('b', 'BUY', '1', '99', { timeInForce: 'gtc' as 'GTC' }))).toEqual({
      fills: [],
      states: ['REJECTED 400001'],
    });
  });

  it("positionSide 'long' in BOTH mode is rejected, not opened as a third leg", () => {
    expect(placeOn(aMarket('c', 'BUY', '1', { positionSide: 'long' as 'LONG' }), 'BOTH')).toEqual({
      fills: [],
      states: ['REJECTED 400001'],
    });
  });

  it("tp triggerType 'last' is rejected, not read as MarkPrice", () => {
    const tp = { triggerPrice: D(101), triggerType: 'last' as 'LastPrice', price: D(0) };
    expect(placeOn(aMarket('d', 'BUY', '1', { tp }))).toEqual({ fills: [], states: ['REJECTED 400001'] });
  });
});

describe('sim venue: other commands with a field outside the venue values are refused 400001', () => {
  it('an algo order with a side, type, condition, trigger type or positionSide not of the venue', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 100, 5, 100.1, 5));
    t.send(
      anAlgo('side', { side: 'buy' as 'BUY' }),
      anAlgo('type', { algoOrderType: 'trigger' as 'TRIGGER' }),
      anAlgo('cond', { conditionType: 'gte' as 'GTE' }),
      anAlgo('trig', { triggerType: 'last' as 'LastPrice' }),
      anAlgo('leg', { positionSide: 'none' as 'NONE' }),
      anAlgo('fine'),
    );
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.message])).toEqual([
      ['side', '400001 bad parameters: side "buy" is not one of BUY, SELL'],
      ['type', '400001 bad parameters: algoOrderType "trigger" is not one of TRIGGER, TP_SL'],
      ['cond', '400001 bad parameters: conditionType "gte" is not one of GTE, LTE'],
      ['trig', '400001 bad parameters: triggerType "last" is not one of MarkPrice, LastPrice'],
      ['leg', '400001 bad parameters: positionSide "none" is not one of NONE, LONG, SHORT'],
    ]);
    expect(t.of('algoOrder').map((e) => e.algoOrder.clientAlgoOrderId)).toEqual(['fine']);
  });

  it('a position close, a cancel of all algo orders and a position mode switch', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 100, 5, 100.1, 5));
    t.send(
      anAlgo('kept'),
      { kind: 'closePosition', ref: 'close', sym: BTC, positionSide: 'long' as 'LONG' },
      { kind: 'cancelAllAlgoOrders', ref: 'cancel', algoOrderType: 'tp_sl' as 'TP_SL' },
      { kind: 'setPositionMode', ref: 'mode', positionMode: 'both' as 'BOTH' },
    );
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([
      ['close', 400001],
      ['cancel', 400001],
      ['mode', 400001],
    ]);
    expect(t.of('algoOrder').map((e) => `${e.algoOrder.clientAlgoOrderId} ${e.algoOrder.state}`)).toEqual([
      'kept NEW',
    ]);
  });
});

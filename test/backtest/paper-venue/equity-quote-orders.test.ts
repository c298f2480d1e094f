import { describe, expect, it } from 'vitest';
import { D, type PlaceOrderIntent } from '../../../core/model/index.ts';
import { placeOrderArgsFromIntent, RequestRuleError } from '../../../core/venue/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aPaperVenue, closedAfterEachTest, T0, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';
import { aQuote, aSim } from '../../kit/sim-builders.ts';

const AAPL = 'US_EQUITY_AAPL';
const ORDER = '/api/v1/trading/order';
const intent: PlaceOrderIntent = {
  kind: 'placeOrder',
  ref: 'q1',
  sym: AAPL,
  side: 'BUY',
  orderType: 'MARKET',
  timeInForce: 'FAK',
  qty: D(0),
  quoteOrderQty: D('1000'),
  reduceOnly: false,
  positionSide: 'NONE',
  extendedTrading: true,
};
const REASON = /quoteOrderQty is not taken on a US equity \(US_EQUITY_AAPL\)/;
const opened = closedAfterEachTest();

describe('a US-equity market order sized by quoteOrderQty: refused alike in backtest, paper and live', () => {
  it('backtest sim: REJECTED 400001 with the reason, nothing filled', () => {
    const spec = anInstrument(AAPL, {
      lotSize: D('1'),
      minSize: D('1'),
      tickSize: D('0.01'),
      minNotional: D('0'),
    });
    const t = aSim({ instruments: [spec], startTime: T0 });
    t.sim.onMarket(aQuote(T0 + 1, 190, 500, 190.02, 500, AAPL));
    t.send(intent);
    t.sim.advanceTo(T0 + 2);
    expect(t.of('execution')).toEqual([]);
    const order = t.of('order').at(-1)?.order;
    expect(order?.orderState).toBe('REJECTED');
    expect(order?.reason).toMatch(REASON);
  });

  it('paper venue: the REST place order answers 400001 with the same reason', async () => {
    opened.venue = await aPaperVenue();
    const venue = await withFirstQuotes(opened.venue);
    const body = {
      sym: AAPL,
      side: 'BUY',
      orderType: 'MARKET',
      orderQty: '0',
      quoteOrderQty: '1000',
      clientOrderId: 'q',
    };
    const refused = await signedRest(venue, 'POST', ORDER, body);
    expect(refused.body.code).toBe(400001);
    expect(refused.body.message).toMatch(REASON);
  });

  it('PLACE_ORDER (paper and live): the intent is refused rather than sent as qty 0', () => {
    expect(() => placeOrderArgsFromIntent(intent, 'c1')).toThrow(RequestRuleError);
    expect(() => placeOrderArgsFromIntent(intent, 'c1')).toThrow(/PLACE_ORDER carries no quote amount/);
    expect(placeOrderArgsFromIntent({ ...intent, qty: D(5) }, 'c1').qty).toBe(5);
  });
});

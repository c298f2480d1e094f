import { describe, expect, it } from 'vitest';
import { D, type PlaceAlgoOrderIntent } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import {
  anAlgo as aBtcAlgo,
  aLimit,
  aMark,
  aMarket,
  aQuote,
  aSim,
  aTrade,
  BTC,
} from '../../kit/sim-builders.ts';

/** The venue's limit on clientOrderId (per public venue docs). */
const MAX_REF = 40;
const LONG_REF = 'r'.repeat(MAX_REF);

/** An algo order of the kit's, triggering at 101. */
function anAlgo(ref: string, fields: Partial<PlaceAlgoOrderIntent> = {}): PlaceAlgoOrderIntent {
  return aBtcAlgo(ref, { triggerPrice: D('101'), ...fields });
}

const takeProfit = { triggerPrice: D('110'), triggerType: 'LastPrice' as const, price: D('0') };
const stopLoss = { triggerPrice: D('90'), triggerType: 'LastPrice' as const, price: D('0') };

describe('sim venue: references the venue generates', () => {
  it("names a fired algo order's child <ref>-trig, and an attached tp / sl <parent>-tp / <parent>-sl", () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 5, 100, 5));
    t.send(anAlgo('a'), aMarket('p', 'BUY', '1', { tp: takeProfit, sl: stopLoss }));
    t.sim.onMarket(aTrade(2, 101, 1, 'BUY'));
    expect(t.of('algoOrder').map((e) => [e.algoOrder.clientAlgoOrderId, e.algoOrder.state])).toEqual([
      ['a', 'NEW'],
      ['p-tp', 'NEW'],
      ['p-sl', 'NEW'],
      ['a', 'TRIGGERED'],
    ]);
    expect(t.of('execution').map((e) => e.execution.clientOrderId)).toEqual(['p', 'a-trig']);
  });

  it("never takes a user's algo reference for a tp / sl: the user's algo order stays theirs", async () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 50, 100, 50));
    t.send(anAlgo('q-tp', { triggerPrice: D('200') }), aMarket('q', 'BUY', '1', { tp: takeProfit }));
    t.send({ kind: 'cancelAlgoOrder', ref: 'cx', target: 'q-tp', sym: BTC });
    t.sim.advanceTo(2);
    const algos = t.of('algoOrder').map((e) => e.algoOrder);
    const tp = algos.find((a) => a.algoOrderType === 'TP_SL');
    expect(tp?.clientAlgoOrderId).not.toBe('q-tp');
    expect(tp?.clientAlgoOrderId.length).toBeLessThanOrEqual(MAX_REF);
    // the cancel reached the user's TRIGGER order; the attached tp is still open
    expect(algos.filter((a) => a.state === 'CANCELLED').map((a) => a.algoOrderType)).toEqual(['TRIGGER']);
    const open = (await t.sim.snapshot()).openAlgoOrders;
    expect(open.map((a) => [a.clientAlgoOrderId, a.algoOrderType])).toEqual([
      [tp?.clientAlgoOrderId, 'TP_SL'],
    ]);
  });

  it("never takes a user's order reference for a fired algo's child: cancelling it cancels the user's order", async () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 5, 100, 5));
    t.send(aLimit('a-trig', 'BUY', '1', '90'), anAlgo('a', { price: D('0') }));
    t.sim.onMarket(aTrade(2, 101, 1, 'BUY'));
    t.send({ kind: 'cancelOrder', ref: 'c', target: 'a-trig', sym: BTC });
    t.sim.advanceTo(3);
    const child = t
      .of('order')
      .filter((e) => e.order.orderType === 'MARKET')
      .at(-1)?.order;
    expect(child?.clientOrderId).not.toBe('a-trig');
    expect(child?.orderState).toBe('FILLED');
    const user = await t.sim.lookupOrder(BTC, 'a-trig');
    expect([user?.orderType, user?.limitPrice.toFixed(), user?.orderState]).toEqual([
      'LIMIT',
      '90',
      'CANCELLED',
    ]);
  });

  it('keeps generated references within the 40 characters of a clientOrderId', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99.9, 5, 100, 5));
    t.send(anAlgo(LONG_REF), aMarket(LONG_REF, 'BUY', '1', { tp: takeProfit, sl: stopLoss }));
    t.sim.onMarket(aTrade(2, 101, 1, 'BUY'));
    const refs = [
      ...t.of('algoOrder').map((e) => e.algoOrder.clientAlgoOrderId),
      ...t.of('order').map((e) => e.order.clientOrderId),
    ];
    // the algo and the parent share the user's reference (one is an algo order, one an order);
    // the child, the tp and the sl each get their own
    expect(new Set(refs).size).toBe(4);
    expect(refs.filter((ref) => ref.length > MAX_REF)).toEqual([]);
  });

  it('names a liquidation order within 40 characters', () => {
    // a 27-character sym on its SHORT leg: SIM-L-<n>-BINANCE_PERP_1000FLOKI_USDT-SHORT is 41 or more
    const FLOKI = 'BINANCE_PERP_1000FLOKI_USDT';
    const t = aSim({
      instruments: [anInstrument(FLOKI)],
      startingBalances: { USDT: D('200') },
      positionMode: 'BOTH',
    });
    t.sim.onMarket(aQuote(0, 100, 100, 100.1, 100, FLOKI));
    t.sim.onMarket(aMark(0, 100, undefined, FLOKI));
    t.send(aMarket('m', 'SELL', '10', { sym: FLOKI, positionSide: 'SHORT' }));
    // short 10 @ 100: equity 200 - 0.5 fee - 10 x 20 = -0.5 < MM 10 x 120 x 0.005 = 6
    t.sim.onMarket(aMark(1, 120, undefined, FLOKI));
    expect(t.of('liquidationPosition')).toHaveLength(2);
    const close = t
      .of('order')
      .filter((e) => e.order.orderType === 'MARKET' && e.order.side === 'BUY')
      .at(-1)?.order;
    expect(close?.orderState).toBe('FILLED');
    expect(close?.clientOrderId.length).toBeLessThanOrEqual(MAX_REF);
  });

  it("never names a liquidation order over a user's order", async () => {
    /** Long 10 @ 100 on 200 USDT at leverage 10 with a bid resting, then the mark falls to 80.4. */
    const run = (userRef: string) => {
      const t = aSim({ startingBalances: { USDT: D('200') } });
      t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
      t.sim.onMarket(aMark(0, 100));
      t.send(aMarket('m', 'BUY', '10'), aLimit(userRef, 'BUY', '0.5', '50'));
      // equity 199.5 - 196 = 3.5 < MM 10 x 80.4 x 0.005 = 4.02 (see the liquidation tests)
      t.sim.onMarket(aMark(1, 80.4));
      return t;
    };
    const liquidationEventId = run('bid').of('liquidationEvent')[0]?.record.liquidationEventId;
    // the same run with the bid named as the liquidation order used to be
    const taken = `${liquidationEventId}-${BTC}-NONE`;
    const t = run(taken);
    expect(t.of('liquidationEvent')[0]?.record.liquidationEventId).toBe(liquidationEventId);
    const close = t
      .of('order')
      .filter((e) => e.order.orderType === 'MARKET' && e.order.side === 'SELL')
      .at(-1)?.order;
    expect(close?.orderState).toBe('FILLED');
    expect(close?.clientOrderId).not.toBe(taken);
    const user = await t.sim.lookupOrder(BTC, taken);
    expect([user?.orderType, user?.orderState, user?.cancelType]).toEqual([
      'LIMIT',
      'CANCELLED',
      'LIQUIDATION',
    ]);
  });

  it("names a position close within 40 characters and never over a user's order", async () => {
    const ETH = 'BINANCE_PERP_ETH_USDT';
    const t = aSim({ instruments: [anInstrument(BTC), anInstrument(ETH)] });
    t.sim.onMarket(aQuote(0, 99.9, 10, 100, 10));
    t.sim.onMarket(aQuote(0, 99.9, 10, 100, 10, ETH));
    t.send(aMarket('b', 'BUY', '1'), aMarket('e', 'BUY', '1', { sym: ETH }), aLimit('x', 'BUY', '1', '90'));
    // one close named as the user's resting order, two closes suffixed -1 / -2 past 40 characters
    t.send({ kind: 'closePosition', ref: 'x', sym: BTC, positionSide: 'NONE' });
    t.sim.advanceTo(1);
    t.send(aMarket('b2', 'BUY', '1'));
    t.send({ kind: 'closePositions', ref: LONG_REF, symList: [BTC, ETH] });
    t.sim.advanceTo(2);
    const closes = t
      .of('order')
      .filter(
        (e) => e.order.orderType === 'MARKET' && e.order.side === 'SELL' && e.order.orderState === 'FILLED',
      )
      .map((e) => e.order.clientOrderId);
    expect(closes).toHaveLength(3);
    expect(closes).not.toContain('x');
    expect(closes.filter((ref) => ref.length > MAX_REF)).toEqual([]);
    const user = await t.sim.lookupOrder(BTC, 'x');
    expect([user?.orderType, user?.limitPrice.toFixed(), user?.orderState]).toEqual(['LIMIT', '90', 'OPEN']);
  });
});

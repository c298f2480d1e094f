import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aLimit, aMark, aMarket, aQuote, aSim } from '../../kit/sim-builders.ts';

const sl = (p: string) => ({ triggerPrice: D(p), triggerType: 'LastPrice' as const, price: D('0') });

describe('BOTH mode: tp/sl and reduce-only orders per leg', () => {
  it('a close of the SHORT leg leaves the LONG leg its stop and its reduce-only take-profit', () => {
    const t = aSim({ startingBalances: { USDT: D('1000') }, positionMode: 'BOTH' });
    t.sim.onMarket(aQuote(0, 1000, 50, 1000, 50));
    t.sim.onMarket(aMark(0, 1000));
    t.send(
      aMarket('L', 'BUY', '1', { positionSide: 'LONG', sl: sl('900') }),
      aMarket('S', 'SELL', '0.5', { positionSide: 'SHORT', sl: sl('1100') }),
      aLimit('ltp', 'SELL', '1', '1200', { positionSide: 'LONG', reduceOnly: true }),
      // the same exit without the flag (a SELL on LONG acts as reduce-only in BOTH mode)
      aLimit('ltp2', 'SELL', '1', '1200', { positionSide: 'LONG' }),
    );
    t.sim.advanceTo(1);
    t.send({ kind: 'closePosition', ref: 'cs', sym: 'BINANCE_PERP_BTC_USDT', positionSide: 'SHORT' });
    t.sim.advanceTo(2);
    const algos = new Map<string, string>();
    for (const e of t.of('algoOrder')) algos.set(`${e.algoOrder.positionSide}`, e.algoOrder.state);
    const ltp = t.of('order').findLast((e) => e.order.clientOrderId === 'ltp')?.order;
    const ltp2 = t.of('order').findLast((e) => e.order.clientOrderId === 'ltp2')?.order;
    expect(ltp2?.orderState).toBe('OPEN'); // kept
    expect([...algos]).toEqual([
      ['LONG', 'NEW'],
      ['SHORT', 'CANCELLED'],
    ]);
    // the LONG leg's reduce-only take-profit limit should survive a close of the SHORT leg, as its stop
    // and its unflagged twin do; it is CANCELLED with cancelType CLOSE_POSITION
    expect(ltp?.orderState).toBe('OPEN');
  });
});
